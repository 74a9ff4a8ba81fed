//! `drafti show`: a position as a text board, and optionally an SVG diagram: a FEN, or a game
//! of an archive at a ply (`drafti show FILE --game N --ply K`).

use crate::args::{parse_fen, ReadAsArg};
use crate::error::{report_written, CliError, CommandResult};
use crate::files::{refuse_input_as_output, OutputFile};
use crate::input::{open_inputs, EncodingArg};
use drafti_archive::replay::{replay, ReplayOptions};
use drafti_archive::validation::{VariantEvidence, VariantGuess};
use drafti_pdn::{parse_game, GameSplitter};
use drafti_report::svg::{self, Arrow};
use drafti_report::text::diagnostic::variant_note;
use drafti_rules::move_number;
use drafti_rules::{Position, Variant};
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "\
With --game, POSITION is a PDN file (or - for stdin) and the board is game N's after K plies \
(default: the last position the record reaches), replayed by the rules core; the move that \
led to it is named, and drawn as an arrow in the SVG.")]
#[command(mut_arg("variant", |a| a.requires("game").help("With --game: rules for the game, whatever its tags say (tz, tzdraft, czech, russian)")))]
pub struct Args {
    /// The position (FEN, numeric or algebraic squares), or with --game a PDN file.
    #[arg(value_name = "POSITION")]
    target: String,
    /// Show game N (1-based) of the file POSITION.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    game: Option<u64>,
    /// With --game: the board after this many plies (0: the start position).
    #[arg(long, value_name = "K", requires = "game")]
    ply: Option<usize>,
    // With --game only.
    #[command(flatten)]
    read_as: ReadAsArg,
    /// Also write an SVG board diagram with square names to this file (`-`: to stdout,
    /// instead of the text board).
    #[arg(long, value_name = "OUT")]
    svg: Option<std::path::PathBuf>,
    #[command(flatten)]
    encoding: EncodingArg,
}

/// A position of a game: the board, what led to it, the last move's path.
struct Shown {
    position: Position,
    caption: Option<String>,
    arrows: Vec<Arrow>,
}

/// Game `n` of `file` after `ply` plies (default: as far as the record replays).
fn game_position(
    file: &str,
    n: u64,
    ply: Option<usize>,
    variant: Option<Variant>,
    encoding: EncodingArg,
) -> Result<Shown, CliError> {
    let mut inputs = open_inputs(&[file.to_string()], encoding)?.inputs;
    let input = inputs.remove(0);
    let index = (n - 1) as usize;
    let mut count = 0;
    let mut raw = None;
    for game in GameSplitter::new(input.reader) {
        let game = game.map_err(|e| CliError::new(format!("cannot read {}: {e}", input.name)))?;
        count += 1;
        if game.index == index {
            raw = Some(game);
            break;
        }
    }
    let raw = raw.ok_or_else(|| {
        CliError::new(format!(
            "{}: no game {n} (the file holds {count} game{})",
            input.name,
            if count == 1 { "" } else { "s" }
        ))
    })?;
    let record = parse_game(&raw).map_err(|e| {
        CliError::new(format!(
            "{} game {n}: {}:{}: {}",
            input.name, e.span.line, e.span.column, e.message
        ))
    })?;
    let options = ReplayOptions {
        variant_override: variant,
        ..ReplayOptions::default()
    };
    let game = replay(record, &options);
    // The variant policy of every command that reads archives (`crate::runner`), for one
    // game: an untagged game that replays valid only under other rules is said so.
    let mut guess = VariantGuess::default();
    guess.add_evidence(&VariantEvidence::of_game(&game, &options));
    if let Some(note) = variant_note(&format!("{} game {n}", input.name), &guess) {
        eprintln!("{note}");
    }
    let replayed = game.moves.len();
    let ply = ply.unwrap_or(replayed);
    if ply > replayed {
        let why = match game.errors().next() {
            Some(e) => format!(
                "; the replay stopped at line {}, column {}: {}",
                e.span.line, e.span.column, e.message
            ),
            None => String::new(),
        };
        return Err(CliError::new(format!(
            "{} game {n} has {replayed} plies, not {ply}{why}",
            input.name
        )));
    }
    let (caption, arrows) = match ply.checked_sub(1) {
        Some(last) => (
            Some(format!(
                "after {ply} plies ({} {})",
                move_number(game.first_mover, ply),
                game.record.moves.nodes[last].mv.text
            )),
            vec![Arrow {
                path: game.moves[last].path().collect(),
                color: "#3a6ea5",
            }],
        ),
        None => (Some("start position".to_string()), Vec::new()),
    };
    Ok(Shown {
        position: game.positions[ply],
        caption: caption.map(|c| format!("{} game {n}, {c}", input.name)),
        arrows,
    })
}

pub fn run(args: Args) -> CommandResult {
    if let (Some(path), Some(_)) = (&args.svg, args.game) {
        refuse_input_as_output("--svg", path, [&args.target])?;
    }
    let shown = match args.game {
        Some(n) => game_position(
            &args.target,
            n,
            args.ply,
            args.read_as.variant,
            args.encoding,
        )?,
        None => Shown {
            position: parse_fen(&args.target).map_err(CliError::new)?,
            caption: None,
            arrows: Vec::new(),
        },
    };
    let pos = &shown.position;
    let mut text = String::new();
    if let Some(caption) = &shown.caption {
        text.push_str(caption);
        text.push('\n');
    }
    text.push_str(&pos.board_text());
    text.push_str(&format!("{} to move   {}\n", pos.turn(), pos.to_fen()));
    let svg_on_stdout = args.svg.as_deref() == Some(std::path::Path::new("-"));
    if !svg_on_stdout {
        let mut out = std::io::stdout().lock();
        report_written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))?;
    }
    if let Some(path) = args.svg {
        let mut file = OutputFile::create(&path)?;
        svg::write_document(&mut file, pos, &shown.arrows)
            .and_then(|()| file.commit().map(drop))
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?;
        if !svg_on_stdout {
            eprintln!("wrote {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
