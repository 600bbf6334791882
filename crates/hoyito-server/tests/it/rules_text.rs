//! The rules page the web app serves is the project's authoritative rules
//! text, `RULES.md` of the shared folder beside the repository, byte for byte.

use std::path::Path;

#[test]
fn the_served_rules_are_the_authoritative_text() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = root.join("../shared/RULES.md");
    let authoritative = std::fs::read_to_string(&shared).unwrap_or_else(|e| {
        panic!(
            "cannot read the authoritative rules at {}: {e}; the repository expects the shared folder beside it",
            shared.display()
        )
    });
    let copy = std::fs::read_to_string(root.join("web/rules.md")).unwrap();
    assert!(
        copy == authoritative,
        "web/rules.md differs from {}: copy it over (cp ../shared/RULES.md web/rules.md)",
        shared.display()
    );
    let (mime, served) = hoyito_server::assets::asset("/rules.md").expect("the rules page is embedded");
    assert!(mime.starts_with("text/markdown"));
    assert!(
        served == authoritative.as_bytes(),
        "the binary embeds an old web/rules.md: rebuild"
    );
}
