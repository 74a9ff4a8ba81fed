//! A game's positions ready to be searched ([`Searcher`]: the keys of the earlier positions
//! for repetitions, the running count of draw law 2) and this thread's engines.
//!
//! Each task uses its thread's engine; a search limited by depth or nodes does not depend on
//! what the engine searched before, so the result is the same whatever the threads.

use crate::game::{MoveAnalysis, PositionEval};
use crate::tables::{exact_move, table_eval, use_tables, EndgameTables};
use drafti_archive::replay::ReplayedGame;
use drafti_engine::egtb::Tables;
use drafti_engine::{Config, Engine, Limits};
use drafti_rules::{Game, Position, Variant};
use std::sync::Arc;

/// What each search of a game's positions needs besides the position: the earlier hash keys
/// (repetitions) and the running count of draw law 2.
pub struct Searcher<'a> {
    pub(crate) game: &'a ReplayedGame,
    pub(crate) keys: Vec<u64>,
    pub(crate) king_counts: Vec<Option<u32>>,
}

impl<'a> Searcher<'a> {
    /// The keys and counts of every position of `game`.
    pub fn new(game: &'a ReplayedGame) -> Searcher<'a> {
        let keys = game.positions.iter().map(Position::hash_key).collect();
        let mut rules = Game::new(game.start, game.variant);
        let mut king_counts = Vec::with_capacity(game.positions.len());
        king_counts.push(rules.king_count());
        for mv in &game.moves {
            rules.play(mv);
            king_counts.push(rules.king_count());
        }
        Searcher {
            game,
            keys,
            king_counts,
        }
    }
}

impl Searcher<'_> {
    /// Position `i` searched alone within `limits` (depth and nodes; multipv 1) by this
    /// thread's engine for the variant with a `tt_mb` table, fresh for the search.
    /// With `tables`, a position they hold is looked up instead (exact), and the search
    /// probes them.
    pub fn search_alone(
        &self,
        i: usize,
        limits: &Limits,
        tt_mb: usize,
        tables: &EndgameTables,
    ) -> PositionEval {
        let tables = tables.get(self.game.variant);
        if let Some((eval, _)) =
            tables.and_then(|t| table_eval(t, &self.game.positions[i], self.king_counts[i]))
        {
            return eval;
        }
        let limits = self.limits(i, limits);
        with_sized_engine(self.game.variant, tt_mb, |engine| {
            engine.set_keep_table(false);
            use_tables(engine, tables);
            engine
                .search(&self.game.positions[i], &limits, &self.keys[..i], |_| {})
                .into()
        })
    }

    /// Every position of the game searched within `limits` as one sequence, from the last to
    /// the first, by this thread's engine with a `tt_mb` table kept from one search to the
    /// next (fresh for the game), as the analysis's pass does; results in the game's order.
    /// With `tables`, a position they hold is looked up instead (exact).
    pub fn search_in_sequence(
        &self,
        limits: &Limits,
        tt_mb: usize,
        tables: &EndgameTables,
    ) -> Vec<PositionEval> {
        let tables = tables.get(self.game.variant);
        with_sized_engine(self.game.variant, tt_mb, |engine| {
            engine.clear();
            engine.set_keep_table(true);
            use_tables(engine, tables);
            let mut evals: Vec<PositionEval> = (0..self.game.positions.len())
                .rev()
                .map(|i| self.search_position(engine, i, limits, tables))
                .collect();
            engine.set_keep_table(false);
            evals.reverse();
            evals
        })
    }

    /// Position `i` in `engine` (its table as it is) within `limits`, or looked up in
    /// `tables` when they hold it.
    pub(crate) fn search_position(
        &self,
        engine: &mut Engine,
        i: usize,
        limits: &Limits,
        tables: Option<&Arc<Tables>>,
    ) -> PositionEval {
        let pos = &self.game.positions[i];
        if let Some((eval, _)) = tables.and_then(|t| table_eval(t, pos, self.king_counts[i])) {
            return eval;
        }
        engine
            .search(pos, &self.limits(i, limits), &self.keys[..i], |_| {})
            .into()
    }

    /// `limits` for position `i`: its count of law 2, one line.
    fn limits(&self, i: usize, limits: &Limits) -> Limits {
        Limits {
            king_count: self.king_counts[i],
            multipv: 1,
            ..limits.clone()
        }
    }

    /// Move `i` judged from the endgame tables, when they hold its position
    /// ([`exact_move`]).
    pub(crate) fn exact_move(&self, tables: &Tables, i: usize) -> Option<MoveAnalysis> {
        exact_move(
            tables,
            &self.game.positions[i],
            self.king_counts[i],
            self.game.moves[i],
            i + 1,
        )
    }
}

thread_local! {
    /// This thread's engines, one per variant and table size (a table's size changes what
    /// a search finds, so it is part of what makes a result reproducible).
    static ENGINES: std::cell::RefCell<Vec<(usize, Engine)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// This thread's engine for `variant` with a `tt_mb` table, as shipped.
pub(crate) fn with_sized_engine<R>(
    variant: Variant,
    tt_mb: usize,
    f: impl FnOnce(&mut Engine) -> R,
) -> R {
    with_engine(variant, tt_mb, &Config::default(), f)
}

/// This thread's engine for `variant` with a `tt_mb` table and the switches `config`.
pub(crate) fn with_engine<R>(
    variant: Variant,
    tt_mb: usize,
    config: &Config,
    f: impl FnOnce(&mut Engine) -> R,
) -> R {
    ENGINES.with(|cell| {
        let mut engines = cell.borrow_mut();
        let i = match engines
            .iter()
            .position(|(mb, e)| *mb == tt_mb && e.variant() == variant && e.config() == config)
        {
            Some(i) => i,
            None => {
                let laws = drafti_rules::DrawLaws::for_variant(variant);
                let engine = Engine::with_config(variant, tt_mb, laws, config.clone());
                engines.push((tt_mb, engine));
                engines.len() - 1
            }
        };
        f(&mut engines[i].1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::tests::game;

    #[test]
    fn a_game_searched_in_sequence_is_reproducible_and_uses_what_it_learned() {
        let g =
            game("1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 c7-b6 4. d2-e3 h6-g5 5. f4xh6 d6-e5 *");
        let searcher = Searcher::new(&g);
        let limits = Limits::nodes(3_000);
        let tables = EndgameTables::default();
        let first = searcher.search_in_sequence(&limits, 4, &tables);
        assert_eq!(first.len(), g.positions.len());
        // Whatever this thread's engine searched before: the table is fresh for the game.
        let _ = searcher.search_alone(0, &Limits::nodes(20_000), 4, &tables);
        let again = searcher.search_in_sequence(&limits, 4, &tables);
        for (a, b) in first.iter().zip(&again) {
            assert_eq!(
                (a.score, a.best, a.depth, a.nodes),
                (b.score, b.best, b.depth, b.nodes)
            );
        }
        // The first position is searched last, with the later positions' results in the
        // table (the next one is its child): the same depth costs fewer nodes than alone.
        let depth = Limits::depth(8);
        let sequence = searcher.search_in_sequence(&depth, 4, &tables);
        let alone = searcher.search_alone(0, &depth, 4, &tables);
        assert_eq!(sequence[0].depth, alone.depth);
        assert!(
            sequence[0].nodes < alone.nodes,
            "{} >= {}",
            sequence[0].nodes,
            alone.nodes
        );
    }
}
