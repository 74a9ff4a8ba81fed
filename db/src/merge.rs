//! Merging the parts of a sharded build (`drafti index build --shard K/N`) into the index one
//! build of the whole archive makes, byte for byte. The parts must be of the same archive
//! (the same inputs, with the same sizes and checksums), made with the same books, and be
//! shards 1/N to N/N of one split, each once.

use crate::format::IndexError;
use crate::game::{order_key, ORDER_KEY};
use crate::index::Index;
use crate::key::MoveCode;
use crate::record::{GameInfo, RecordLayout, NONE_U32};
use crate::write::{game_order, IndexWriter, Meta, PositionGroup};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Why parts cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A part cannot be read.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// The parts do not make up one archive split once.
    #[error("{0}")]
    Parts(String),
}

/// Merges the parts `paths` into the index `out`; returns its meta section.
pub fn merge_parts(paths: &[PathBuf], out: &Path) -> Result<Meta, MergeError> {
    let parts: Vec<Index> = paths
        .iter()
        .map(|p| Index::open(p))
        .collect::<Result<_, _>>()?;
    let order = check(&parts)?;
    let parts: Vec<&Index> = order.iter().map(|&i| &parts[i]).collect();
    let n = parts.len() as u64;
    let first = parts[0].meta();

    // Names: the union, sorted; each part's ids mapped to the union's.
    let mut all: Vec<String> = Vec::new();
    for p in &parts {
        for id in 0..p.strings() {
            all.push(p.string(id)?.to_string());
        }
    }
    all.sort();
    all.dedup();
    let position: HashMap<&str, u32> = all
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i as u32))
        .collect();
    let mut maps: Vec<Vec<u32>> = Vec::new();
    for p in &parts {
        let mut m = Vec::with_capacity(p.strings() as usize);
        for id in 0..p.strings() {
            m.push(position[p.string(id)?]);
        }
        maps.push(m);
    }

    let games: u64 = parts.iter().map(|p| p.local_games()).sum();
    let mut writer = IndexWriter::create(out, false, first.totals_min_games)?;
    writer.strings(&all)?;
    // Game g of the archive is record g / N of part g % N.
    let record = |g: u64| -> Result<GameInfo, IndexError> {
        let (k, local) = ((g % n) as usize, g / n);
        let mut r = parts[k].record(local)?;
        let map = |id: u32| {
            if id == NONE_U32 {
                id
            } else {
                maps[k][id as usize]
            }
        };
        r.white = map(r.white);
        r.black = map(r.black);
        r.event = map(r.event);
        Ok(r)
    };
    let layout = parts
        .iter()
        .fold(RecordLayout::for_names(all.len()), |layout, p| {
            RecordLayout {
                name_bytes: layout.name_bytes,
                ..layout.join(p.meta().record)
            }
        });
    writer.records(layout, (0..games).map(record))?;
    writer.moves(|sink| {
        for g in 0..games {
            sink(parts[(g % n) as usize].moves_bytes(g / n)?)?;
        }
        Ok(())
    })?;
    // The games in the order of their moves, as one build orders them.
    let mut keys = vec![[0u8; ORDER_KEY]; games as usize];
    for (k, p) in parts.iter().enumerate() {
        p.for_each_game(0..p.local_games(), |local, _, moves| {
            keys[(local * n) as usize + k] = order_key(moves);
            Ok(true)
        })?;
    }
    writer.game_order(Some(game_order(&keys)))?;
    drop(keys);
    let mut streams: Vec<_> = parts.iter().map(|p| p.groups().peekable()).collect();
    let groups = std::iter::from_fn(move || loop {
        // The smallest key among the parts' next positions.
        let mut smallest = None;
        for s in streams.iter_mut() {
            match s.peek() {
                Some(Ok(g)) if smallest.is_none_or(|k| g.key < k) => smallest = Some(g.key),
                Some(Ok(_)) => {}
                Some(Err(_)) => return s.next(),
                None => {}
            }
        }
        let key = smallest?;
        let mut moves: Vec<(MoveCode, Vec<u32>)> = Vec::new();
        for s in streams.iter_mut() {
            if matches!(s.peek(), Some(Ok(g)) if g.key == key) {
                let Some(Ok(g)) = s.next() else {
                    unreachable!("peeked")
                };
                for (code, ids) in g.moves {
                    match moves.iter_mut().find(|(c, _)| *c == code) {
                        Some((_, list)) => list.extend(ids),
                        None => moves.push((code, ids)),
                    }
                }
            }
        }
        moves.sort_by_key(|(c, _)| *c);
        for (_, ids) in &mut moves {
            ids.sort_unstable();
            ids.dedup();
        }
        let group = PositionGroup { key, moves };
        if group.games() >= 2 {
            return Some(Ok(group));
        }
    });
    let positions = writer.positions(groups)?;
    let mut variants = [0u64; 4];
    for p in &parts {
        for (v, c) in variants.iter_mut().zip(p.meta().variants) {
            *v += c;
        }
    }
    let meta = Meta {
        drafti: env!("CARGO_PKG_VERSION").to_string(),
        inputs: first.inputs.clone(),
        shard: None,
        games,
        archive_games: first.archive_games,
        window: first.window,
        single_game_positions: false,
        positions,
        books: first.books.clone(),
        variants,
        totals_min_games: first.totals_min_games,
        record: layout,
    };
    writer.finish(&meta)?;
    Ok(meta)
}

/// Checks that the parts are shards 1/N … N/N of one archive, each once, made alike; returns
/// them in shard order.
fn check(parts: &[Index]) -> Result<Vec<usize>, MergeError> {
    let bad = |m: String| Err(MergeError::Parts(m));
    let Some(first) = parts.first() else {
        return bad("no part to merge".into());
    };
    let name = |i: usize| parts[i].path().display().to_string();
    let m0 = first.meta();
    let Some(s0) = m0.shard else {
        return bad(format!(
            "{}: not a part of a sharded build (built without --shard)",
            name(0)
        ));
    };
    let mut slots: Vec<Option<usize>> = vec![None; s0.count as usize];
    for (i, p) in parts.iter().enumerate() {
        let m = p.meta();
        let Some(s) = m.shard else {
            return bad(format!(
                "{}: not a part of a sharded build (built without --shard)",
                name(i)
            ));
        };
        if !m.single_game_positions {
            return bad(format!("{}: a whole index, not a part", name(i)));
        }
        if s.count != s0.count {
            return bad(format!(
                "{} is shard {}/{} but {} is shard {}/{}: parts of different splits",
                name(i),
                s.index,
                s.count,
                name(0),
                s0.index,
                s0.count
            ));
        }
        if m.inputs != m0.inputs {
            return bad(format!("{} and {} were built from different archives (their inputs' names, games, sizes or checksums differ)", name(0), name(i)));
        }
        if m.books != m0.books || m.window != m0.window || m.totals_min_games != m0.totals_min_games
        {
            return bad(format!(
                "{} and {} were built with different named-opening books, windows or totals thresholds",
                name(0),
                name(i)
            ));
        }
        if let Some(j) = slots[s.index as usize - 1] {
            return bad(format!(
                "{} and {} are both shard {}/{}",
                name(j),
                name(i),
                s.index,
                s.count
            ));
        }
        slots[s.index as usize - 1] = Some(i);
    }
    let missing: Vec<String> = slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(k, _)| format!("{}/{}", k + 1, s0.count))
        .collect();
    if !missing.is_empty() {
        return bad(format!("shards {} are missing", missing.join(", ")));
    }
    let order: Vec<usize> = slots.into_iter().map(|s| s.expect("checked")).collect();
    // Each part must hold exactly its shard's games.
    for (k, &i) in order.iter().enumerate() {
        let expected = (m0.archive_games + s0.count - 1 - k as u64) / s0.count;
        if parts[i].local_games() != expected {
            return bad(format!(
                "{} holds {} games; shard {}/{} of {} games has {expected}",
                name(i),
                parts[i].local_games(),
                k + 1,
                s0.count,
                m0.archive_games
            ));
        }
    }
    Ok(order)
}
