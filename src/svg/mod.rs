//! Pictures as plain SVG that any browser opens: the board (`board`) and a game's curve of
//! expected score by ply (`curve`). Both are built as text, with no dependency, and every piece
//! of text from outside (player names, event titles) goes through [`escape`].

pub mod board;
pub mod curve;

pub use board::{board_svg, BoardPicture};
pub use curve::{curve_svg, CurvePoint};

/// `text` with the five characters XML reserves replaced by their entities.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab and newline are not allowed in XML 1.0 at all.
            c if c.is_control() && c != '\t' && c != '\n' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The SVG document's opening tag for a `width` × `height` picture.
fn open(width: u32, height: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"'Noto Serif CJK SC','Noto Sans CJK SC','Source Han Serif',serif\">\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_characters_and_controls_are_escaped() {
        assert_eq!(escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
        assert_eq!(escape("x\u{1}y"), "x\u{FFFD}y");
    }
}
