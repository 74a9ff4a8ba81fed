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
use drafti_rules::{Game, TzDraftCounts, Variant};
use std::sync::Arc;

/// What each search of a game's positions needs besides the position: the earlier hash keys
/// (repetitions) and the draw rules' running counts.
pub struct Searcher<'a> {
    pub(crate) game: &'a ReplayedGame,
    /// The earlier keys a search can meet again, stretch after stretch of the game between
    /// irreversible moves: each stretch's distinct keys in the order they first occur.
    repeatable: Vec<u64>,
    /// Where position `i`'s earlier keys are in `repeatable`: (start, length).
    earlier: Vec<(usize, usize)>,
    pub(crate) counts: Vec<GameCounts>,
}

/// The draw rules' running counts at a position of a game, which a search of it goes on
/// from: law 2's (Tanzanian), TzDraft's server's.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GameCounts {
    /// Law 2's count ([`Game::king_count`]).
    pub(crate) king: Option<u32>,
    /// TzDraft's server's counts ([`Game::tzdraft_counts`]).
    pub(crate) tzdraft: Option<TzDraftCounts>,
}

impl GameCounts {
    /// The counts of `game` as it stands.
    pub(crate) fn of(game: &Game) -> GameCounts {
        GameCounts {
            king: game.king_count(),
            tzdraft: game.tzdraft_counts(),
        }
    }

    /// `limits` with these counts, one line.
    pub(crate) fn limits(self, limits: &Limits) -> Limits {
        Limits {
            king_count: self.king,
            tzdraft_counts: self.tzdraft,
            multipv: 1,
            ..limits.clone()
        }
    }
}

/// Whether a position repeated in a game of `variant` is a draw by its rules, so that a move
/// back to an earlier position of the game may throw a win away: Czech and Russian (their
/// federations' threefold repetition) and TzDraft (article 8.2 of its official rules, v2.2:
/// the same position with the same side to move a third time is drawn automatically, as its
/// apps declare it; its server leaves the check to them); the search scores the first
/// repetition as the draw it leads to. The Tanzanian article has no repetition rule
/// (RULES.md): there a position is worth the same whatever came before it (draw law 2's
/// count apart, which the searches get on its own).
pub fn repetition_draws(variant: Variant) -> bool {
    matches!(
        variant,
        Variant::Czech | Variant::Russian | Variant::TzDraft
    )
}

impl<'a> Searcher<'a> {
    /// The keys and counts of every position of `game`.
    ///
    /// A search uses the earlier keys as a set (is a position on its path one of them?), and
    /// no position after a capture or a man move repeats one before it (men only move
    /// forward, and captured pieces do not come back): so each position gets the distinct
    /// keys since the last such move. The same answers as every earlier key, in time and
    /// memory linear in the game's length (a king shuffle of 160,000 plies handed each search
    /// all the keys before it: quadratic).
    ///
    /// Only where a repeated position is a draw by the rules ([`repetition_draws`]): in a
    /// Tanzanian game a king that goes back to an earlier square throws nothing away, so no
    /// search of it gets the game's earlier positions (each still scores a repetition on its
    /// own path as 0, so as not to loop).
    pub fn new(game: &'a ReplayedGame) -> Searcher<'a> {
        let mut repeatable = Vec::new();
        let mut earlier = Vec::with_capacity(game.positions.len());
        let mut seen = std::collections::HashSet::new();
        let mut start = 0;
        let remembered = repetition_draws(game.variant);
        for (i, pos) in game.positions.iter().enumerate() {
            earlier.push((start, repeatable.len() - start));
            let irreversible = game
                .moves
                .get(i)
                .is_some_and(|mv| mv.is_capture() || pos.men(pos.turn()).contains(mv.from()));
            if irreversible || !remembered {
                start = repeatable.len();
                seen.clear();
            } else if seen.insert(pos.hash_key()) {
                repeatable.push(pos.hash_key());
            }
        }
        let mut rules = Game::new(game.start, game.variant);
        let mut counts = Vec::with_capacity(game.positions.len());
        counts.push(GameCounts::of(&rules));
        for mv in &game.moves {
            rules.play(mv);
            counts.push(GameCounts::of(&rules));
        }
        Searcher {
            game,
            repeatable,
            earlier,
            counts,
        }
    }

    /// The keys before position `i` that a search from it can meet again.
    pub(crate) fn history(&self, i: usize) -> &[u64] {
        let (start, len) = self.earlier[i];
        &self.repeatable[start..start + len]
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
            tables.and_then(|t| table_eval(t, &self.game.positions[i], self.counts[i].king))
        {
            return eval;
        }
        let limits = self.limits(i, limits);
        with_sized_engine(self.game.variant, tt_mb, |engine| {
            engine.set_keep_table(false);
            use_tables(engine, tables);
            engine
                .search(&self.game.positions[i], &limits, self.history(i), |_| {})
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
        if let Some((eval, _)) = tables.and_then(|t| table_eval(t, pos, self.counts[i].king)) {
            return eval;
        }
        engine
            .search(pos, &self.limits(i, limits), self.history(i), |_| {})
            .into()
    }

    /// `limits` for position `i`: its draw rules' counts, one line.
    fn limits(&self, i: usize, limits: &Limits) -> Limits {
        self.counts[i].limits(limits)
    }

    /// Move `i` judged from the endgame tables, when they hold its position
    /// ([`exact_move`]).
    pub(crate) fn exact_move(&self, tables: &Tables, i: usize) -> Option<MoveAnalysis> {
        exact_move(
            tables,
            &self.game.positions[i],
            self.counts[i].king,
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
    fn each_search_gets_the_keys_it_can_meet_again_in_linear_space() {
        // Issue 41: a king shuffle of N plies handed every search all the keys before it, so
        // analyse was quadratic in N. Now: the distinct keys since the last capture or man
        // move, which answer every repetition the same.
        let shuffle = ["30-26", "1-6", "26-30", "6-1"];
        let moves: Vec<&str> = (0..2_000).map(|i| shuffle[i % 4]).collect();
        let text = format!(
            "[GameType \"25\"]\n[FEN \"W:WK30:BK1\"]\n{} *",
            moves.join(" ")
        );
        let g = game(&text);
        let searcher = Searcher::new(&g);
        let lengths: Vec<usize> = (0..g.positions.len())
            .map(|i| searcher.history(i).len())
            .collect();
        assert_eq!(lengths[..6], [0, 1, 2, 3, 4, 4]);
        assert!(lengths.iter().all(|&n| n <= 4));
        assert_eq!(searcher.repeatable.len(), 4);
        // Every key before a position that can repeat is among its history; none twice.
        for i in 0..g.positions.len() {
            let history = searcher.history(i);
            for earlier in &g.positions[..i] {
                assert!(history.contains(&earlier.hash_key()), "{i}");
            }
            let distinct: std::collections::HashSet<_> = history.iter().collect();
            assert_eq!(distinct.len(), history.len());
        }
        // A man move or a capture starts again: nothing before it repeats.
        let g = game("1. c3-d4 f6-g5 2. d4-c5 b6xd4 3. e3xc5 d6xb4 4. a3xc5 *");
        let searcher = Searcher::new(&g);
        assert!((0..g.positions.len()).all(|i| searcher.history(i).is_empty()));
        // Tanzanian rules draw no repeated position: the same shuffle gives no search the
        // game's earlier keys.
        let g = game(
            &text
                .replace("[GameType \"25\"]\n", "")
                .replace("W:WK30:BK1", "W:WK30,21:BK1,12"),
        );
        assert_eq!((g.variant, g.positions.len()), (Variant::Tanzanian, 2_001));
        let searcher = Searcher::new(&g);
        assert!((0..g.positions.len()).all(|i| searcher.history(i).is_empty()));
        assert!(searcher.repeatable.is_empty());
        // TzDraft draws a threefold repetition: its searches get the earlier keys again.
        let g = game(
            &text
                .replace("[GameType \"25\"]", "[Variant \"TzDraft\"]")
                .replace("W:WK30:BK1", "W:WK30,21:BK1,12"),
        );
        assert_eq!(g.variant, Variant::TzDraft);
        let searcher = Searcher::new(&g);
        assert_eq!(searcher.history(5).len(), 4);
        assert_eq!(searcher.repeatable.len(), 4);
    }

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
        // table (the next one is its child): the same depth costs fewer nodes than alone (at
        // depth 10, the re-search's, half as many; one depth can be an exception: at depth 8
        // the network's sequence spent 2% more).
        let depth = Limits::depth(10);
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
