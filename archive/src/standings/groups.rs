//! Who plays in which group: a groups file (`--groups FILE`) or the games' `Group` (or
//! `Section`) tags.
//!
//! The file has one group a line, `Group NAME: player, player, ...`; empty lines and lines
//! starting with `#` are ignored; names are normalised as in the `White`/`Black` tags (spaces
//! trimmed, inner runs made one). A name with a comma (`Surname, Given`, as PDN writes names)
//! is written in double quotes: `Group A: "Krista, V.", "Bajusz, O."` (a quote inside a quoted
//! name is doubled). Players are found ignoring case: `amina` in the file is the `Amina` of
//! the games (Unicode lower case; the games' spelling is shown).

use super::order::normalise_name;
use std::collections::HashMap;
use std::io::Read as _;

/// The longest line a groups file may have (bytes).
pub const MAX_GROUPS_LINE: usize = 64 * 1024;

/// The biggest groups file read (bytes).
pub const MAX_GROUPS_FILE: u64 = 4 << 20;

/// What is wrong with a groups file, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct GroupsError {
    /// The file, as named.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The groups of a tournament, in the order given, each with its players. Every lookup is
/// one hash probe, so files of any number of groups and players are read in linear time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Groups {
    groups: Vec<(String, Vec<String>)>,
    /// Each group's index, by name.
    by_name: HashMap<String, usize>,
    /// Each player's group and place in it, by [`player_key`].
    places: HashMap<String, (usize, usize)>,
}

/// How a player's name is looked up: its lower case (names that differ only in case are one
/// player).
pub(crate) fn player_key(name: &str) -> String {
    name.to_lowercase()
}

/// The player names of a groups line after `Group NAME:`, split on the commas outside
/// double quotes; an error for an unclosed quote or text after a quoted name.
fn split_players(list: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut chars = list.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut name = String::new();
        if chars.next_if_eq(&'"').is_some() {
            loop {
                match chars.next() {
                    Some('"') if chars.next_if_eq(&'"').is_some() => name.push('"'),
                    Some('"') => break,
                    Some(c) => name.push(c),
                    None => return Err("a quoted name has no closing quote".to_string()),
                }
            }
            while chars.next_if(|c| c.is_whitespace()).is_some() {}
            if chars.peek().is_some_and(|&c| c != ',') {
                return Err(format!(
                    "text after the quoted name \"{name}\": separate names with commas"
                ));
            }
        } else {
            while let Some(c) = chars.next_if(|&c| c != ',') {
                name.push(c);
            }
        }
        names.push(name);
        if chars.next().is_none() {
            return Ok(names);
        }
    }
}

impl Groups {
    /// No groups.
    pub fn new() -> Groups {
        Groups::default()
    }

    /// Reads a groups file from `reader` (at most [`MAX_GROUPS_FILE`] bytes of UTF-8);
    /// `file` names it in errors.
    pub fn read(reader: impl std::io::Read, file: &str) -> Result<Groups, GroupsError> {
        let error = |line: usize, message: String| GroupsError {
            file: file.to_string(),
            line,
            message,
        };
        let mut bytes = Vec::new();
        reader
            .take(MAX_GROUPS_FILE + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| error(1, format!("cannot be read: {e}")))?;
        let lines_before = |end: usize| 1 + bytes[..end].iter().filter(|b| **b == b'\n').count();
        if bytes.len() as u64 > MAX_GROUPS_FILE {
            return Err(error(
                lines_before(MAX_GROUPS_FILE as usize),
                format!("larger than {} MiB", MAX_GROUPS_FILE >> 20),
            ));
        }
        match std::str::from_utf8(&bytes) {
            Ok(text) => Groups::parse(text, file),
            Err(e) => Err(error(
                lines_before(e.valid_up_to()),
                "not UTF-8 text".into(),
            )),
        }
    }

    /// Reads a groups file's text; `file` names it in errors.
    ///
    /// ```
    /// use drafti_archive::standings::Groups;
    /// let g = Groups::parse("Group A: Amina, Bakari\n# seeded\nGroup B: \"Juma, D.\",  Daudi\n", "g.txt").unwrap();
    /// assert_eq!(g.group_of("Daudi"), Some("B"));
    /// assert_eq!(g.group_of("juma, d."), Some("B"));
    /// let e = Groups::parse("Group A: Amina\nAmina, Bakari\n", "g.txt").unwrap_err();
    /// assert_eq!(e.to_string(), "g.txt:2: expected `Group NAME: player, player, ...`");
    /// ```
    pub fn parse(text: &str, file: &str) -> Result<Groups, GroupsError> {
        let mut groups = Groups::new();
        let mut lines_of: HashMap<String, usize> = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let error = |message: String| GroupsError {
                file: file.to_string(),
                line: n + 1,
                message,
            };
            if line.len() > MAX_GROUPS_LINE {
                return Err(error(format!("line longer than {MAX_GROUPS_LINE} bytes")));
            }
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let rest = line
                .get(..6)
                .filter(|head| head.eq_ignore_ascii_case("group "))
                .map(|_| &line[6..]);
            let Some((name, players)) = rest.and_then(|r| r.split_once(':')) else {
                return Err(error(
                    "expected `Group NAME: player, player, ...`".to_string(),
                ));
            };
            let Some(name) = normalise_name(name) else {
                return Err(error("the group has no name".to_string()));
            };
            if let Some(at) = lines_of.insert(name.clone(), n + 1) {
                return Err(error(format!("group {name} is already given on line {at}")));
            }
            let players =
                split_players(players).map_err(|e| error(format!("group {name}: {e}")))?;
            for player in players {
                let Some(player) = normalise_name(&player) else {
                    return Err(error(format!("an empty player name in group {name}")));
                };
                if let Some(other) = groups.group_of(&player) {
                    return Err(error(format!("{player} is already in group {other}")));
                }
                groups.add(&name, &player);
            }
        }
        if groups.groups.is_empty() {
            return Err(GroupsError {
                file: file.to_string(),
                line: text.lines().count().max(1),
                message: "no groups: expected lines `Group NAME: player, player, ...`".to_string(),
            });
        }
        Ok(groups)
    }

    /// Adds `player` to the group `group` (created at the end if new), unless the player is
    /// in a group already; returns that other group if it differs.
    pub fn add(&mut self, group: &str, player: &str) -> Option<String> {
        let key = player_key(player);
        if let Some(&(other, _)) = self.places.get(&key) {
            let other = &self.groups[other].0;
            return (other != group).then(|| other.clone());
        }
        let at = *self.by_name.entry(group.to_string()).or_insert_with(|| {
            self.groups.push((group.to_string(), Vec::new()));
            self.groups.len() - 1
        });
        let members = &mut self.groups[at].1;
        self.places.insert(key, (at, members.len()));
        members.push(player.to_string());
        None
    }

    /// The group of `player` (found ignoring case).
    pub fn group_of(&self, player: &str) -> Option<&str> {
        self.index_of(player).map(|at| self.groups[at].0.as_str())
    }

    /// The index of the group of `player` (in the order given; found ignoring case).
    pub fn index_of(&self, player: &str) -> Option<usize> {
        self.place_of(player).map(|(group, _)| group)
    }

    /// The group of `player` and the player's place in it (found ignoring case).
    pub fn place_of(&self, player: &str) -> Option<(usize, usize)> {
        self.places.get(&player_key(player)).copied()
    }

    /// The groups in the order given: name, players.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.groups.iter().map(|(g, m)| (g.as_str(), m.as_slice()))
    }

    /// How many groups.
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        Groups::parse(text, "g.txt").unwrap_err().to_string()
    }

    #[test]
    fn groups_files_are_read_and_bad_lines_named() {
        let g = Groups::parse(
            "# National Championship 2023\n\ngroup A: Amina,  Bakari ,Chausiku\nGroup B: Daudi\n",
            "g.txt",
        )
        .unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g.group_of("Bakari"), Some("A"));
        assert_eq!(g.index_of("Daudi"), Some(1));
        assert_eq!(g.place_of("Chausiku"), Some((0, 2)));
        assert_eq!(
            error("Group A: Amina\nGroup B: Bakari, Amina\n"),
            "g.txt:2: Amina is already in group A"
        );
        assert_eq!(
            error("Group A: Amina, Amina\n"),
            "g.txt:1: Amina is already in group A"
        );
        assert_eq!(
            error("Group A: Amina, AMINA\n"),
            "g.txt:1: AMINA is already in group A"
        );
        assert_eq!(
            error("Group A: Amina\nGroup A: Bakari\n"),
            "g.txt:2: group A is already given on line 1"
        );
        assert_eq!(
            error("Group A: Amina,, Bakari"),
            "g.txt:1: an empty player name in group A"
        );
        assert_eq!(error("Group : Amina"), "g.txt:1: the group has no name");
        assert_eq!(
            error("\n# only comments\n"),
            "g.txt:2: no groups: expected lines `Group NAME: player, player, ...`"
        );
        assert!(error(&format!("Group A: {}", "x".repeat(MAX_GROUPS_LINE)))
            .starts_with("g.txt:1: line longer"));
    }

    #[test]
    fn names_with_commas_are_quoted_and_case_is_ignored() {
        let g = Groups::parse(
            "Group A: \"Krista, V.\" , \"Bajusz,  O.\",Sofr\nGroup B: \"Say \"\"Jo\"\"\"\n",
            "g.txt",
        )
        .unwrap();
        let a: Vec<&str> = g
            .iter()
            .next()
            .unwrap()
            .1
            .iter()
            .map(String::as_str)
            .collect();
        assert_eq!(a, ["Krista, V.", "Bajusz, O.", "Sofr"]);
        assert_eq!(g.group_of("Say \"Jo\""), Some("B"));
        assert_eq!(g.group_of("KRISTA, v."), Some("A"));
        assert_eq!(g.group_of("sofr"), Some("A"));
        assert_eq!(
            error("Group A: \"Krista, V."),
            "g.txt:1: group A: a quoted name has no closing quote"
        );
        assert_eq!(
            error("Group A: \"Krista\" V."),
            "g.txt:1: group A: text after the quoted name \"Krista\": separate names with commas"
        );
    }
}
