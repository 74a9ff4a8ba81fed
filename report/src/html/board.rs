//! The analysis board's parts of a page: drafti's rules and engine as a WebAssembly module
//! (from `wasm/`, compressed by `build.rs`) and the scripts that play on the boards.
//!
//! `assets/board.js` adds to every game's viewer moves of the reader's own with the engine's
//! answer, the evaluation bar and the archive's explorer, and filters to the index of games;
//! `assets/puzzles.js` makes the puzzles page's boards solvable. Both use the module through
//! its JavaScript API (`wasm/js/drafti.js`), loaded only when a board is first played on.

/// The module's JavaScript API.
const API_JS: &str = include_str!("../../../wasm/js/drafti.js");
/// The analysis board and the index's filters.
const BOARD_JS: &str = include_str!("../../assets/board.js");
/// The puzzles to solve.
const PUZZLES_JS: &str = include_str!("../../assets/puzzles.js");
/// The module: raw DEFLATE in base64 (`build.rs`).
const MODULE_BASE64: &str = include_str!(concat!(env!("OUT_DIR"), "/drafti.wasm.deflate.b64"));

/// A script element around `script`, in a CDATA section (the page is well-formed XML too).
fn script(out: &mut String, script: &str) {
    debug_assert!(!script.contains("]]>") && !script.contains("</"));
    out.push_str("<script>//<![CDATA[\n");
    out.push_str(script);
    out.push_str("//]]></script>");
}

/// The scripts that run before the viewer's (they register its hooks): the module's API and
/// the analysis board, in a script element of their own, so that a browser too old for them
/// still runs the viewer.
pub(crate) fn scripts_before_viewer() -> String {
    let mut out = String::with_capacity(API_JS.len() + BOARD_JS.len() + 64);
    script(&mut out, &format!("{API_JS}\n{BOARD_JS}"));
    out
}

/// The module itself, as data the scripts read when a board is first played on (after the
/// viewer's script, so the first boards are drawn before the browser parses it).
pub(crate) fn module_data() -> String {
    format!(r#"<script type="application/octet-stream" id="drafti-wasm">{MODULE_BASE64}</script>"#)
}

/// The puzzles page's scripts: the module's API and the board's (the shared click handling),
/// the viewer's drawing, then the puzzles'; the module last.
pub(crate) fn puzzle_scripts(viewer_globals: &str, viewer_js: &str) -> String {
    let mut out = String::new();
    script(&mut out, viewer_globals);
    out.push_str(&scripts_before_viewer());
    script(&mut out, viewer_js);
    script(&mut out, PUZZLES_JS);
    out.push_str(&module_data());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    #[test]
    fn the_module_in_the_page_inflates_to_the_built_module() {
        let packed = base64::engine::general_purpose::STANDARD
            .decode(MODULE_BASE64)
            .unwrap();
        let module = miniz_oxide::inflate::decompress_to_vec(&packed).unwrap();
        assert_eq!(module, include_bytes!("../../../wasm/dist/drafti.wasm"));
        assert!(MODULE_BASE64.len() < 1_000_000);
    }
}
