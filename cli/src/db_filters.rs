//! The flags that choose which games of an index a query looks at, shared by `explore` and
//! `find` (declared once here, with their help).

use crate::args::parse_variant;
use crate::error::CliError;
use drafti_db::{parse_date, Books, Filters, GameFilter, Index, Outcome};
use drafti_rules::{Color, Variant};

/// Which games count.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct FilterArgs {
    /// Only games of these rules: tz, czech or russian.
    #[arg(long, value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// Only games dated on or after DATE (2007, 2007.11 or 2007.11.24).
    #[arg(long, value_name = "DATE", value_parser = parse_date_arg)]
    pub from: Option<u32>,
    /// Only games dated on or before DATE.
    #[arg(long, value_name = "DATE", value_parser = parse_date_arg)]
    pub to: Option<u32>,
    /// Only games whose Event contains TEXT (any case).
    #[arg(long, value_name = "TEXT")]
    pub event: Option<String>,
    /// Only games with a player whose name contains NAME (any case).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// With --player: only the games where the player has this colour (white or black).
    #[arg(long, value_parser = parse_color, requires = "player")]
    pub color: Option<Color>,
    /// Only games whose average rating (WhiteElo, BlackElo) is at least N.
    #[arg(long, value_name = "N")]
    pub min_rating: Option<u16>,
    /// Only games whose average rating is at most N.
    #[arg(long, value_name = "N")]
    pub max_rating: Option<u16>,
    /// Only games with this result: 1-0, 0-1, 1/2-1/2 or *.
    #[arg(long, value_parser = parse_result)]
    pub result: Option<Outcome>,
    /// Only games named with this Russian opening (a code of db/data/russian-openings.tsv, e.g. GOR).
    #[arg(long, value_name = "CODE")]
    pub opening: Option<String>,
    /// Only games of this drawing-table ballot: fmjd:CODE or idf:CODE (e.g. fmjd:5-III).
    #[arg(long, value_name = "TABLE:CODE")]
    pub ballot: Option<String>,
}

impl FilterArgs {
    /// The filters as the library takes them.
    pub fn filters(&self) -> Filters {
        Filters {
            variant: self.variant,
            date_from: self.from,
            date_to: self.to,
            event: self.event.clone(),
            player: self.player.clone(),
            color: self.color,
            min_rating: self.min_rating,
            max_rating: self.max_rating,
            result: self.result,
            opening: self.opening.clone(),
            ballot: self.ballot.clone(),
        }
    }

    /// The filters resolved against `index` (an unknown opening or ballot is a usage error).
    pub fn resolve(&self, index: &Index, books: &Books) -> Result<GameFilter, CliError> {
        GameFilter::new(index, books, &self.filters())?.map_err(|e| CliError::new(e.to_string()))
    }
}

fn parse_date_arg(text: &str) -> Result<u32, String> {
    match parse_date(text) {
        0 => Err(format!(
            "'{text}' is not a date: expected YYYY, YYYY.MM or YYYY.MM.DD"
        )),
        d => Ok(d),
    }
}

fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(format!("'{text}': expected white or black")),
    }
}

fn parse_result(text: &str) -> Result<Outcome, String> {
    match text {
        "1-0" | "2-0" => Ok(Outcome::WhiteWin),
        "0-1" | "0-2" => Ok(Outcome::BlackWin),
        "1/2-1/2" | "1-1" | "draw" => Ok(Outcome::Draw),
        "*" => Ok(Outcome::Unknown),
        _ => Err(format!("'{text}': expected 1-0, 0-1, 1/2-1/2 or *")),
    }
}

/// Opens an index and the books that named its games.
pub fn open_index(path: &std::path::Path) -> Result<(Index, Books), CliError> {
    let index = Index::open(path)?;
    let books = Books::shipped()?;
    if index.meta().books != books.fingerprint() {
        eprintln!(
            "warning: {}: built with other named-opening books than this drafti's: rebuild it for the current names and ballots",
            path.display()
        );
    }
    Ok((index, books))
}
