//! The page, its script and its style, embedded in the binary: nothing is fetched from elsewhere.

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const BOARD_JS: &str = include_str!("assets/board.js");
const CURVE_JS: &str = include_str!("assets/curve.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const SOUND_JS: &str = include_str!("assets/sound.js");
const I18N_JS: &str = include_str!("assets/i18n.js");
const EDITOR_JS: &str = include_str!("assets/editor.js");
const VARIATION_JS: &str = include_str!("assets/variation.js");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// The content type and bytes served at `path`, when it names an embedded file.
pub fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    Some(match path {
        "/" | "/index.html" => ("text/html; charset=utf-8", INDEX_HTML.as_bytes()),
        "/app.js" => ("text/javascript; charset=utf-8", APP_JS.as_bytes()),
        "/board.js" => ("text/javascript; charset=utf-8", BOARD_JS.as_bytes()),
        "/curve.js" => ("text/javascript; charset=utf-8", CURVE_JS.as_bytes()),
        "/style.css" => ("text/css; charset=utf-8", STYLE_CSS.as_bytes()),
        "/sound.js" => ("text/javascript; charset=utf-8", SOUND_JS.as_bytes()),
        "/i18n.js" => ("text/javascript; charset=utf-8", I18N_JS.as_bytes()),
        "/editor.js" => ("text/javascript; charset=utf-8", EDITOR_JS.as_bytes()),
        "/variation.js" => ("text/javascript; charset=utf-8", VARIATION_JS.as_bytes()),
        "/favicon.svg" => ("image/svg+xml", FAVICON_SVG.as_bytes()),
        "/health" => ("text/plain; charset=utf-8", b"ok\n"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_only_embedded_files() {
        let (kind, page) = asset("/").unwrap();
        assert!(kind.starts_with("text/html"));
        let page = std::str::from_utf8(page).unwrap();
        for needed in [
            "/app.js",
            "/board.js",
            "/curve.js",
            "/style.css",
            "/sound.js",
            "/i18n.js",
            "/editor.js",
            "/variation.js",
            "/favicon.svg",
        ] {
            assert!(page.contains(needed), "{needed}");
            assert!(asset(needed).is_some(), "{needed}");
        }
        // Nothing from the internet: the only address is the SVG namespace, a name, not a fetch.
        for text in [
            INDEX_HTML,
            APP_JS,
            BOARD_JS,
            CURVE_JS,
            STYLE_CSS,
            SOUND_JS,
            I18N_JS,
            EDITOR_JS,
            VARIATION_JS,
            FAVICON_SVG,
        ] {
            let text = text.replace("\"http://www.w3.org/2000/svg\"", "");
            assert!(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"));
        }
        assert_eq!(asset("/../Cargo.toml"), None);
    }
}
