//! The bundled corpus, embedded in the binary: what `drafti report` and `drafti puzzles` read
//! when they are given no FILES and nothing is piped in (see `corpus/README.md` for how the
//! files were made).

use drafti_archive::batch::Input;

/// Hand-annotated records that use every notation feature.
pub const SHOWCASE: &[u8] = include_bytes!("../../../corpus/showcase.pdn");

/// Engine self-play games (`drafti selfplay`, the command is in `corpus/README.md`).
pub const SELFPLAY: &[u8] = include_bytes!("../../../corpus/selfplay.pdn");

/// The self-play games the report's demonstration reads: its first match's first games
/// (so every game keeps its number in the file). At the report's default settings, which
/// meet the verdict targets on master games, these noisy engine games cost about 0.7 s of CPU each
/// on two cores: 500 keep the demonstration under three minutes (docs/performance.md).
pub const REPORT_SELFPLAY_GAMES: usize = 500;

/// The whole corpus as batch inputs, the showcase first.
pub fn inputs() -> Vec<Input> {
    vec![
        Input::new("corpus/showcase.pdn", Box::new(SHOWCASE)),
        Input::new("corpus/selfplay.pdn", Box::new(SELFPLAY)),
    ]
}

/// The size of the whole corpus in bytes (for the progress bar).
pub fn total_bytes() -> u64 {
    (SHOWCASE.len() + SELFPLAY.len()) as u64
}

/// The report's demonstration: the showcase and the first [`REPORT_SELFPLAY_GAMES`]
/// self-play games, with their size in bytes and how to name them.
pub fn report_inputs() -> (Vec<Input>, u64, String) {
    let selfplay = first_games(SELFPLAY, REPORT_SELFPLAY_GAMES);
    let inputs = vec![
        Input::new("corpus/showcase.pdn", Box::new(SHOWCASE)),
        Input::new("corpus/selfplay.pdn", Box::new(selfplay)),
    ];
    let source = format!(
        "the bundled corpus (corpus/showcase.pdn, the first {REPORT_SELFPLAY_GAMES} games of corpus/selfplay.pdn)"
    );
    (inputs, (SHOWCASE.len() + selfplay.len()) as u64, source)
}

/// The first `n` games of a self-play file: up to the `[Event` line that starts game `n + 1`.
fn first_games(pdn: &'static [u8], n: usize) -> &'static [u8] {
    let mut starts = pdn
        .windows(8)
        .enumerate()
        .filter(|&(at, w)| w == b"\n[Event " || (at == 0 && w.starts_with(b"[Event ")))
        .map(|(at, _)| if at == 0 { 0 } else { at + 1 });
    starts.nth(n).map_or(pdn, |end| &pdn[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_reads_the_first_games_whole() {
        let cut = first_games(SELFPLAY, REPORT_SELFPLAY_GAMES);
        let text = std::str::from_utf8(cut).unwrap();
        assert_eq!(
            text.lines().filter(|l| l.starts_with("[Event ")).count(),
            REPORT_SELFPLAY_GAMES
        );
        assert!(
            text.trim_end().ends_with(['0', '1', '2', '*']),
            "ends with a result"
        );
        assert!(SELFPLAY[cut.len()..].starts_with(b"[Event "));
        assert_eq!(
            first_games(b"[Event \"a\"]\n1-0\n", 5),
            b"[Event \"a\"]\n1-0\n"
        );
        assert_eq!(
            first_games(b"[Event \"a\"]\n1-0\n\n[Event \"b\"]\n", 1),
            b"[Event \"a\"]\n1-0\n\n"
        );
    }
}
