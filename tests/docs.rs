//! The maps of the source stay true: every folder of `src/` has its room in
//! `docs/architecture.md` (a row of the rooms table and a place on the floors) and a line in the
//! README's source layout, so a new room cannot land without its description.

use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The folders directly under `src/`.
fn rooms() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut rooms: Vec<String> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    rooms.sort();
    rooms
}

/// The part of `text` from the heading `heading` to the next heading of its level.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text.find(heading).unwrap_or_else(|| panic!("no heading {heading}"));
    let rest = &text[start + heading.len()..];
    let level = heading.split(' ').next().unwrap();
    let end = rest.find(&format!("\n{level} ")).unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn every_folder_of_src_is_a_room_in_the_architecture_and_the_readme() {
    let rooms = rooms();
    assert!(rooms.len() >= 15 && rooms.contains(&"serve".to_string()), "{rooms:?}");
    let architecture = read("docs/architecture.md");
    let table = section(&architecture, "## The rooms");
    let floors = section(&architecture, "## The floors");
    let readme = read("README.md");
    let layout = section(&readme, "## Source layout");
    let mut missing = Vec::new();
    for room in &rooms {
        if !table.lines().any(|line| line.starts_with(&format!("| `{room}/`"))) {
            missing.push(format!("docs/architecture.md's rooms table has no row `{room}/`"));
        }
        if !floors.split_whitespace().any(|word| word == format!("{room}/")) {
            missing.push(format!("docs/architecture.md's floors do not place {room}/"));
        }
        if !layout.contains(&format!("`src/{room}/`")) {
            missing.push(format!("the README's source layout does not name src/{room}/"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn a_missing_room_is_found() {
    // The check above must be able to fail: a layout without serve/ is caught.
    let readme = read("README.md");
    let layout = section(&readme, "## Source layout").replace("`src/serve/`", "`src/elsewhere/`");
    assert!(!layout.contains("`src/serve/`"));
    let architecture = read("docs/architecture.md");
    let floors = section(&architecture, "## The floors").replace("serve/", "");
    assert!(!floors.split_whitespace().any(|word| word == "serve/"));
}
