//! Legal move generation on bitboards, for every variant.
//!
//! Captures are compulsory, so generation first looks for captures (kings, then men) with a
//! depth-first search over the capture sequence; only when there are none are quiet moves
//! produced. During a capture the captured pieces stay on the board: they block the path and
//! cannot be jumped twice. A king that has jumped a piece lands on any empty square beyond it,
//! except that if it can capture again from some of those squares it must land on one of them.
//! A man that reaches the crowning row ends its move there (Russian: goes on as a king).
//!
//! [`Variant::TzDraft`] reads a king's capture as TzDraft's server does
//! (`capture-finding.service.ts`): each captured piece leaves the board at once, so the king
//! may pass over its square again (even straight back); after each jump the king may stop on
//! any landing square nearer than the first one from which it can capture again, must go on
//! from that one, and may not land beyond it.

#![allow(clippy::needless_range_loop)] // loops over the four directions index the tables by direction

use crate::bitboard::{nearest, opposite, perpendicular_mask, shift, slide, NEIGHBOUR, NONE, RAY};
use crate::mv::{Move, MoveList, MAX_CAPTURES};
use crate::{Color, Position, Square, Variant};

const ALL_DIRECTIONS: u8 = 0b1111;

/// Directions a man of `color` moves in (forward).
#[inline(always)]
const fn forward(color: Color) -> [usize; 2] {
    match color {
        Color::White => [0, 1],
        Color::Black => [2, 3],
    }
}

/// Depth-first search over capture sequences of one piece.
struct CaptureSearch<'a> {
    list: &'a mut MoveList,
    /// Enemy pieces (captured ones included: they stay until the move ends).
    enemy: u32,
    /// Empty squares, with the moving piece's start square counted as empty.
    empty: u32,
    crowning_row: u32,
    variant: Variant,
    man_directions: u8,
    from: u8,
    crowned: bool,
    depth: usize,
    landings: [u8; MAX_CAPTURES],
    order: [u8; MAX_CAPTURES],
}

impl CaptureSearch<'_> {
    #[inline]
    fn emit(&mut self, to: u8, captured: u32) {
        let mv = Move {
            from: Square::new_unchecked(self.from),
            to: Square::new_unchecked(to),
            captured,
            promotes: self.crowned,
            len: self.depth as u8,
            landings: self.landings,
            order: self.order,
        };
        // Different routes to the same end over the same pieces are one move. They need a
        // loop in the route, so at least two captures.
        if self.depth >= 2 && self.list.iter().any(|m| m.same_move(&mv)) {
            return;
        }
        self.list.push(mv);
    }

    /// Whether a king on `sq` can jump an uncaptured enemy piece in one of `directions`.
    #[inline]
    fn king_can_capture(&self, sq: usize, directions: u8, captured: u32) -> bool {
        for dir in 0..4 {
            if directions & (1 << dir) == 0 {
                continue;
            }
            let blockers = RAY[sq][dir] & !self.empty;
            if blockers == 0 {
                continue;
            }
            let over = nearest(blockers, dir) as usize;
            if self.enemy & !captured & (1 << over) == 0 {
                continue;
            }
            let land = NEIGHBOUR[over][dir];
            if land != NONE && self.empty & (1 << land) != 0 {
                return true;
            }
        }
        false
    }

    /// Continues a king's capture from `sq` in `directions`.
    fn king(&mut self, sq: usize, directions: u8, captured: u32) {
        for dir in 0..4 {
            if directions & (1 << dir) == 0 {
                continue;
            }
            let blockers = RAY[sq][dir] & !self.empty;
            if blockers == 0 {
                continue;
            }
            let over = nearest(blockers, dir) as usize;
            let over_bit = 1u32 << over;
            if self.enemy & !captured & over_bit == 0 {
                continue;
            }
            let beyond = RAY[over][dir];
            let next_blockers = beyond & !self.empty;
            let landing = if next_blockers == 0 {
                beyond
            } else {
                let b = nearest(next_blockers, dir) as usize;
                beyond ^ RAY[b][dir] ^ (1 << b)
            };
            if landing == 0 {
                continue;
            }
            let now_captured = captured | over_bit;
            // Going on straight ahead is possible from every landing square alike, so it is
            // searched once, from the square directly behind the captured piece.
            let straight = next_blockers != 0 && {
                let b = nearest(next_blockers, dir) as usize;
                let land = NEIGHBOUR[b][dir];
                self.enemy & !now_captured & (1 << b) != 0
                    && land != NONE
                    && self.empty & (1 << land) != 0
            };
            let sideways = perpendicular_mask(dir);
            let mut continuing = 0u32;
            let mut squares = landing;
            while squares != 0 {
                let l = squares.trailing_zeros() as usize;
                squares &= squares - 1;
                if self.king_can_capture(l, sideways, now_captured) {
                    continuing |= 1 << l;
                }
            }
            self.order[self.depth] = over as u8;
            self.depth += 1;
            if straight || continuing != 0 {
                let first = NEIGHBOUR[over][dir] as usize;
                let mut squares = landing;
                while squares != 0 {
                    let l = squares.trailing_zeros() as usize;
                    squares &= squares - 1;
                    self.landings[self.depth - 1] = l as u8;
                    if straight && l == first {
                        self.king(l, sideways | (1 << dir), now_captured);
                    } else if continuing & (1 << l) != 0 {
                        self.king(l, sideways, now_captured);
                    }
                }
            } else {
                let mut squares = landing;
                while squares != 0 {
                    let l = squares.trailing_zeros() as u8;
                    squares &= squares - 1;
                    self.landings[self.depth - 1] = l;
                    self.emit(l, now_captured);
                }
            }
            self.depth -= 1;
        }
    }

    /// Continues a king's capture from `sq` under TzDraft's server reading: the pieces in
    /// `captured` are off the board already. Returns whether the king could capture at all.
    fn king_removing(&mut self, sq: usize, captured: u32) -> bool {
        let empty = self.empty | captured;
        let enemy = self.enemy & !captured;
        let mut found = false;
        for dir in 0..4 {
            let blockers = RAY[sq][dir] & !empty;
            if blockers == 0 {
                continue;
            }
            let over = nearest(blockers, dir) as usize;
            if enemy & (1 << over) == 0 {
                continue;
            }
            let beyond = RAY[over][dir];
            let next_blockers = beyond & !empty;
            let mut landing = if next_blockers == 0 {
                beyond
            } else {
                let b = nearest(next_blockers, dir) as usize;
                beyond ^ RAY[b][dir] ^ (1 << b)
            };
            if landing == 0 {
                continue;
            }
            found = true;
            let now_captured = captured | (1 << over);
            self.order[self.depth] = over as u8;
            self.depth += 1;
            // Nearest landing square first: the first one from which the king can go on
            // ends the choice (it must go on from there and may not fly past it).
            while landing != 0 {
                let l = nearest(landing, dir);
                landing &= !(1 << l);
                self.landings[self.depth - 1] = l;
                if self.king_removing(l as usize, now_captured) {
                    break;
                }
                self.emit(l, now_captured);
            }
            self.depth -= 1;
        }
        found
    }

    /// Continues a man's capture from `sq`; returns whether it could capture at all.
    fn man(&mut self, sq: usize, captured: u32) -> bool {
        let mut found = false;
        for dir in 0..4 {
            if self.man_directions & (1 << dir) == 0 {
                continue;
            }
            let over = NEIGHBOUR[sq][dir];
            if over == NONE || self.enemy & !captured & (1 << over) == 0 {
                continue;
            }
            let land = NEIGHBOUR[over as usize][dir];
            if land == NONE || self.empty & (1 << land) == 0 {
                continue;
            }
            found = true;
            let now_captured = captured | (1 << over);
            self.order[self.depth] = over;
            self.landings[self.depth] = land;
            self.depth += 1;
            if self.crowning_row & (1 << land) != 0 {
                self.crowned = true;
                let onward = ALL_DIRECTIONS & !(1 << opposite(dir));
                if self.variant.crowned_man_continues()
                    && self.king_can_capture(land as usize, onward, now_captured)
                {
                    self.king(land as usize, onward, now_captured);
                } else {
                    self.emit(land, now_captured);
                }
                self.crowned = false;
            } else if !self.man(land as usize, now_captured) {
                self.emit(land, now_captured);
            }
            self.depth -= 1;
        }
        found
    }
}

impl Position {
    #[inline(always)]
    fn sides(&self) -> (u32, u32) {
        match self.turn {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        }
    }

    #[inline(always)]
    fn man_capture_directions(&self, variant: Variant) -> u8 {
        if variant.men_capture_backward() {
            ALL_DIRECTIONS
        } else {
            let [a, b] = forward(self.turn);
            (1 << a) | (1 << b)
        }
    }

    /// Men of the side to move that can jump right now (bitboard test, no search).
    #[inline(always)]
    fn men_that_capture(&self, variant: Variant) -> u32 {
        let (own, enemy) = self.sides();
        let men = own & !self.kings;
        let empty = !(own | enemy);
        let directions = self.man_capture_directions(variant);
        let mut capturers = 0;
        for dir in 0..4 {
            if directions & (1 << dir) != 0 {
                let back = opposite(dir);
                capturers |= shift(shift(empty, back) & enemy, back) & men;
            }
        }
        capturers
    }

    /// Whether the side to move has a capture (and so must capture).
    pub fn has_capture(&self, variant: Variant) -> bool {
        if self.men_that_capture(variant) != 0 {
            return true;
        }
        let (own, enemy) = self.sides();
        let empty = !(own | enemy);
        let mut kings = own & self.kings;
        while kings != 0 {
            let k = kings.trailing_zeros() as usize;
            kings &= kings - 1;
            for dir in 0..4 {
                let blockers = RAY[k][dir] & !empty;
                if blockers == 0 {
                    continue;
                }
                let over = nearest(blockers, dir) as usize;
                let land = NEIGHBOUR[over][dir];
                if enemy & (1 << over) != 0 && land != NONE && empty & (1 << land) != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// Appends every capture of the side to move to `list`.
    fn generate_captures(&self, variant: Variant, list: &mut MoveList) {
        let (own, enemy) = self.sides();
        let empty = !(own | enemy);
        let mut search = CaptureSearch {
            list,
            enemy,
            empty,
            crowning_row: Position::crowning_row(self.turn),
            variant,
            man_directions: self.man_capture_directions(variant),
            from: 0,
            crowned: false,
            depth: 0,
            landings: [0; MAX_CAPTURES],
            order: [0; MAX_CAPTURES],
        };
        let mut kings = own & self.kings;
        while kings != 0 {
            let k = kings.trailing_zeros() as usize;
            kings &= kings - 1;
            search.from = k as u8;
            search.empty = empty | (1 << k);
            if variant.tzdraft_captures() {
                search.king_removing(k, 0);
            } else {
                search.king(k, ALL_DIRECTIONS, 0);
            }
        }
        if variant.king_capture_priority() && !search.list.is_empty() {
            return;
        }
        let mut men = self.men_that_capture(variant);
        while men != 0 {
            let m = men.trailing_zeros() as usize;
            men &= men - 1;
            search.from = m as u8;
            search.empty = empty | (1 << m);
            search.man(m, 0);
        }
    }

    /// Appends every quiet move of the side to move to `list` (captures ignored).
    fn generate_quiet(&self, list: &mut MoveList) {
        let (own, enemy) = self.sides();
        let occupied = own | enemy;
        let empty = !occupied;
        let crowning_row = Position::crowning_row(self.turn);
        let men = own & !self.kings;
        for dir in forward(self.turn) {
            let mut targets = shift(men, dir) & empty;
            let back = opposite(dir);
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let from = NEIGHBOUR[to][back];
                list.push(Move::quiet(
                    Square::new_unchecked(from),
                    Square::new_unchecked(to as u8),
                    crowning_row & (1 << to) != 0,
                ));
            }
        }
        let mut kings = own & self.kings;
        while kings != 0 {
            let k = kings.trailing_zeros() as usize;
            kings &= kings - 1;
            for dir in 0..4 {
                let mut targets = slide(k, dir, occupied);
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    list.push(Move::quiet(
                        Square::new_unchecked(k as u8),
                        Square::new_unchecked(to),
                        false,
                    ));
                }
            }
        }
    }

    /// Fills `list` with the legal moves of the side to move (it is cleared first).
    ///
    /// ```
    /// use drafti_rules::{MoveList, Position, Variant, Color};
    /// let mut list = MoveList::new();
    /// Position::start(Color::White).generate_moves(Variant::Tanzanian, &mut list);
    /// assert_eq!(list.len(), 7);
    /// ```
    pub fn generate_moves(&self, variant: Variant, list: &mut MoveList) {
        list.clear();
        self.generate_captures(variant, list);
        if list.is_empty() {
            self.generate_quiet(list);
        }
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self, variant: Variant) -> Vec<Move> {
        let mut list = MoveList::new();
        self.generate_moves(variant, &mut list);
        list.to_vec()
    }

    /// The number of legal moves, counted without building quiet moves (perft's bulk count).
    pub fn count_moves(&self, variant: Variant) -> usize {
        if self.has_capture(variant) {
            let mut list = MoveList::new();
            self.generate_captures(variant, &mut list);
            return list.len();
        }
        let (own, enemy) = self.sides();
        let occupied = own | enemy;
        let men = own & !self.kings;
        let [a, b] = forward(self.turn);
        let mut count =
            (shift(men, a) & !occupied).count_ones() + (shift(men, b) & !occupied).count_ones();
        let mut kings = own & self.kings;
        while kings != 0 {
            let k = kings.trailing_zeros() as usize;
            kings &= kings - 1;
            for dir in 0..4 {
                count += slide(k, dir, occupied).count_ones();
            }
        }
        count as usize
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self, variant: Variant) -> bool {
        self.has_capture(variant) || self.has_quiet_move()
    }

    /// Whether the side to move has a move that captures nothing (legal when it has no
    /// capture): for a caller that already knows there is no capture.
    pub fn has_quiet_move(&self) -> bool {
        let (own, enemy) = self.sides();
        let empty = !(own | enemy);
        let men = own & !self.kings;
        let [a, b] = forward(self.turn);
        if (shift(men, a) | shift(men, b)) & empty != 0 {
            return true;
        }
        let kings = own & self.kings;
        (0..4).any(|dir| shift(kings, dir) & empty != 0)
    }
}
