//! The network evaluation's trainer (`engine/src/nnue.rs`): quiet positions with their game
//! results and search scores in, a quantised network file out.
//!
//! ```text
//! nice -n 10 cargo run --release -p drafti-engine --example nnue_train -- train \
//!     --data /work/data/tz-0.txt,/work/data/tz-1.txt --hidden 128 --buckets 4 \
//!     --activation screlu --lambda 0.5 --epochs 10 --seed 1 --threads 2 \
//!     --out engine/data/nnue-tz.bin
//! # held-out log-loss of evaluations side by side (the pattern weights, networks)
//! cargo run --release -p drafti-engine --example nnue_train -- compare --data FILES \
//!     [--weights W.txt,...] [--net N.bin,...]
//! ```
//! The data: one quiet position a line, `FEN<TAB>result<TAB>score<TAB>game` (White's result
//! 1, 0.5 or 0; the engine's search score from White's side in centi-men, or `wN` / `lN` for
//! a proven win / loss). Whole games are held out (`game % holdout == 0`, 20 by default).
//! Positions are deduplicated within each side of the split (a position seen in several
//! games counts once, its labels averaged).
//!
//! The target blends the result with the search score: `λ·result + (1−λ)·σ(score/s)`, `s`
//! fitted so that `σ(score/s)` best predicts the result on the training games. The network's
//! output is a logit; its centi-men are `logit · s`, so it speaks the search's units. The
//! loss is the cross-entropy against the target, minimised by Adam over shuffled mini-batches
//! (seeded; each batch's gradient summed in a fixed order over `--threads` threads, so a
//! run is reproducible). Every epoch reports the held-out log-loss against the game result
//! and the mean squared error against the target; the end reports the same for the
//! quantised network as the engine runs it.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use drafti_engine::nnue::{self, Activation, FloatNetwork, Network, INPUTS, QA, QB};
use drafti_engine::{Config, Engine, Weights};
use drafti_rules::{Color, DrawLaws, Position, SplitMix64, Variant};
use std::collections::HashMap;
use std::io::BufRead;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let number = |name: &str, default: f64| -> f64 {
        value(name).map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| fail(&format!("{name}: not a number: {v}")))
        })
    };
    let list = |name: &str| -> Vec<String> {
        value(name)
            .map(|v| {
                v.split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    };
    let data = list("--data");
    let holdout = number("--holdout", 20.0) as u64;
    match args.first().map(String::as_str) {
        Some("train") if !data.is_empty() => {
            let activation = match value("--activation").as_deref() {
                None | Some("screlu") => Activation::SquaredClippedRelu,
                Some("crelu") => Activation::ClippedRelu,
                Some(other) => fail(&format!("--activation crelu|screlu, not {other}")),
            };
            let settings = Settings {
                hidden: number("--hidden", 128.0) as usize,
                buckets: number("--buckets", 4.0) as usize,
                activation,
                lambda: number("--lambda", 0.5) as f32,
                epochs: number("--epochs", 10.0) as usize,
                batch: number("--batch", 16384.0) as usize,
                rate: number("--rate", 0.002) as f32,
                seed: number("--seed", 1.0) as u64,
                threads: (number("--threads", 2.0) as usize).max(1),
                max_positions: value("--max-positions")
                    .map(|v| v.parse().unwrap_or_else(|_| fail("--max-positions N"))),
            };
            let set = load(&data, holdout);
            let out = value("--out");
            train(&set, &settings, out.as_deref());
        }
        Some("compare") if !data.is_empty() => {
            let set = load(&data, holdout);
            compare(&set, &list("--weights"), &list("--net"));
        }
        _ => fail(
            "usage: nnue_train train --data F[,F] [--hidden H --buckets B --activation crelu|screlu \
             --lambda L --epochs N --batch N --rate R --seed S --threads T --max-positions N \
             --holdout G --out FILE]\n       nnue_train compare --data F[,F] [--weights W[,W]] \
             [--net N[,N]] [--holdout G]",
        ),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(2);
}

/// A search score: centi-men from White's side, or a proven result.
#[derive(Clone, Copy)]
enum SearchScore {
    CentiMen(f32),
    Win,
    Loss,
}

impl SearchScore {
    fn parse(text: &str) -> Option<SearchScore> {
        if let Some(n) = text.strip_prefix('w') {
            n.parse::<u32>().ok().map(|_| SearchScore::Win)
        } else if let Some(n) = text.strip_prefix('l') {
            n.parse::<u32>().ok().map(|_| SearchScore::Loss)
        } else {
            text.parse::<f32>().ok().map(SearchScore::CentiMen)
        }
    }

    /// `σ(score / s)`: the probability that White scores.
    fn probability(self, s: f32) -> f32 {
        match self {
            SearchScore::CentiMen(cm) => sigmoid(cm / s),
            SearchScore::Win => 1.0,
            SearchScore::Loss => 0.0,
        }
    }
}

/// One distinct position of one side of the split.
struct Sample {
    pos: Position,
    /// White's perspective's inputs.
    inputs: [u8; 24],
    count: u8,
    /// White's mean result.
    result: f32,
    /// White's mean `σ(score/s)`.
    searched: f32,
    /// Held out, and also in a training game.
    seen: bool,
}

impl Sample {
    /// The blended target and the result, from the side to move.
    fn labels(&self, lambda: f32) -> (f32, f32) {
        let target = lambda * self.result + (1.0 - lambda) * self.searched;
        match self.pos.turn() {
            Color::White => (target, self.result),
            Color::Black => (1.0 - target, 1.0 - self.result),
        }
    }
}

/// The positions, split by game.
struct DataSet {
    train: Vec<Sample>,
    held: Vec<Sample>,
    /// Centi-men per unit of the search score's logit.
    scale: f32,
}

/// One line as read.
struct Line {
    pos: Position,
    result: f32,
    score: SearchScore,
    held: bool,
}

fn load(files: &[String], holdout: u64) -> DataSet {
    let start = Instant::now();
    let mut lines = Vec::new();
    let mut bad = 0usize;
    for file in files {
        let reader = std::fs::File::open(file)
            .map(std::io::BufReader::new)
            .unwrap_or_else(|e| fail(&format!("{file}: {e}")));
        for line in reader.lines() {
            let line = line.unwrap_or_else(|e| fail(&format!("{file}: {e}")));
            let mut fields = line.split('\t');
            let parsed = (|| {
                let pos = Position::from_fen(fields.next()?).ok()?;
                let result: f32 = fields.next()?.parse().ok()?;
                let score = SearchScore::parse(fields.next()?)?;
                let game: u64 = fields.next()?.trim().parse().ok()?;
                Some(Line {
                    pos,
                    result,
                    score,
                    held: holdout > 0 && game.is_multiple_of(holdout),
                })
            })();
            match parsed {
                Some(l) => lines.push(l),
                None => bad += 1,
            }
        }
    }
    let scale = fit_scale(lines.iter().filter(|l| !l.held));
    let mut train = Vec::new();
    let mut held = Vec::new();
    let mut index: [HashMap<Position, usize>; 2] = [HashMap::new(), HashMap::new()];
    let mut counts: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    for l in &lines {
        let side = usize::from(l.held);
        let samples = if l.held { &mut held } else { &mut train };
        let searched = l.score.probability(scale);
        match index[side].get(&l.pos) {
            Some(&i) => {
                let s: &mut Sample = &mut samples[i];
                s.result += l.result;
                s.searched += searched;
                counts[side][i] += 1;
            }
            None => {
                index[side].insert(l.pos, samples.len());
                counts[side].push(1);
                let mut inputs = [0u8; 24];
                let mut count = 0;
                nnue::inputs(&l.pos, Color::White, |i| {
                    inputs[count] = i as u8;
                    count += 1;
                });
                samples.push(Sample {
                    pos: l.pos,
                    inputs,
                    count: count as u8,
                    result: l.result,
                    searched,
                    seen: false,
                });
            }
        }
    }
    for (samples, counts) in [(&mut train, &counts[0]), (&mut held, &counts[1])] {
        for (s, &n) in samples.iter_mut().zip(counts) {
            s.result /= n as f32;
            s.searched /= n as f32;
        }
    }
    for s in &mut held {
        s.seen = index[0].contains_key(&s.pos);
    }
    let in_both = held.iter().filter(|s| s.seen).count();
    eprintln!(
        "data: {} lines ({} unreadable) from {} files; {} distinct training positions, {} held \
         out ({} of them also in training games); search score scale s = {:.1} centi-men; {:.1} s",
        lines.len(),
        bad,
        files.len(),
        train.len(),
        held.len(),
        in_both,
        scale,
        start.elapsed().as_secs_f64()
    );
    DataSet { train, held, scale }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Log-loss of probability `p` for outcome `y` (clamped away from 0 and 1).
fn log_loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The `s` minimising the log-loss of `σ(x/s)` against the results (golden-section search
/// over `ln s`; proven scores count as 0 or 1 whatever `s`).
fn fit_scale_by(pairs: impl Iterator<Item = (f64, f64)> + Clone) -> f64 {
    let loss = |s: f64| -> f64 {
        pairs
            .clone()
            .map(|(x, y)| log_loss(1.0 / (1.0 + (-x / s).exp()), y))
            .sum()
    };
    let (mut lo, mut hi) = (10f64.ln(), 2000f64.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(a.exp()) < loss(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

fn fit_scale<'a>(lines: impl Iterator<Item = &'a Line>) -> f32 {
    let pairs: Vec<(f64, f64)> = lines
        .filter_map(|l| match l.score {
            SearchScore::CentiMen(cm) => Some((f64::from(cm), f64::from(l.result))),
            _ => None,
        })
        .step_by(4)
        .collect();
    fit_scale_by(pairs.iter().copied()) as f32
}

struct Settings {
    hidden: usize,
    buckets: usize,
    activation: Activation,
    lambda: f32,
    epochs: usize,
    batch: usize,
    rate: f32,
    seed: u64,
    threads: usize,
    max_positions: Option<usize>,
}

/// The input `i` of White's perspective as the other perspective sees it.
fn flip(i: u8) -> usize {
    let i = usize::from(i);
    (i & 64) | ((i & 32) ^ 32) | (31 - (i & 31))
}

/// Parameters (or gradients, or Adam's moments) in one flat vector:
/// `w1 (INPUTS·H) | b1 (H) | wo (B·2H) | bo (B)`.
struct Shape {
    hidden: usize,
    buckets: usize,
    activation: Activation,
}

impl Shape {
    fn len(&self) -> usize {
        INPUTS * self.hidden + self.hidden + self.buckets * 2 * self.hidden + self.buckets
    }
    fn b1(&self) -> usize {
        INPUTS * self.hidden
    }
    fn wo(&self) -> usize {
        self.b1() + self.hidden
    }
    fn bo(&self) -> usize {
        self.wo() + self.buckets * 2 * self.hidden
    }

    fn act(&self, x: f32) -> (f32, f32) {
        let c = x.clamp(0.0, 1.0);
        let inside = if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 };
        match self.activation {
            Activation::ClippedRelu => (c, inside),
            Activation::SquaredClippedRelu => (c * c, 2.0 * c * inside),
        }
    }

    /// The logit of `s` from the side to move; with `grad` (gradients, target), adds the
    /// cross-entropy's gradient against the target, `(σ(logit) − target) · ∂logit/∂θ`.
    fn forward(
        &self,
        p: &[f32],
        s: &Sample,
        acc: &mut [f32],
        grad: Option<(&mut [f32], f32)>,
    ) -> f32 {
        let h = self.hidden;
        let white_to_move = s.pos.turn() == Color::White;
        let (us, them) = acc.split_at_mut(h);
        us.copy_from_slice(&p[self.b1()..self.b1() + h]);
        them.copy_from_slice(&p[self.b1()..self.b1() + h]);
        for &i in &s.inputs[..usize::from(s.count)] {
            let (own, other) = if white_to_move {
                (usize::from(i), flip(i))
            } else {
                (flip(i), usize::from(i))
            };
            for (a, w) in us.iter_mut().zip(&p[own * h..own * h + h]) {
                *a += w;
            }
            for (a, w) in them.iter_mut().zip(&p[other * h..other * h + h]) {
                *a += w;
            }
        }
        let b = nnue::bucket(s.pos.occupied().count() as usize, self.buckets);
        let wo = &p[self.wo() + b * 2 * h..self.wo() + (b + 1) * 2 * h];
        let mut logit = p[self.bo() + b];
        for (x, w) in acc.iter().zip(wo) {
            logit += self.act(*x).0 * w;
        }
        if let Some((g, target)) = grad {
            let d = sigmoid(logit) - target;
            g[self.bo() + b] += d;
            // Output weights, then the accumulators' gradients in place of their values.
            let wo_at = self.wo() + b * 2 * h;
            for k in 0..2 * h {
                let (a, da) = self.act(acc[k]);
                g[wo_at + k] += d * a;
                acc[k] = d * da * p[wo_at + k];
            }
            let (dus, dthem) = acc.split_at(h);
            for k in 0..h {
                g[self.b1() + k] += dus[k] + dthem[k];
            }
            for &i in &s.inputs[..usize::from(s.count)] {
                let (own, other) = if white_to_move {
                    (usize::from(i), flip(i))
                } else {
                    (flip(i), usize::from(i))
                };
                for (gw, d) in g[own * h..own * h + h].iter_mut().zip(dus) {
                    *gw += d;
                }
                for (gw, d) in g[other * h..other * h + h].iter_mut().zip(dthem) {
                    *gw += d;
                }
            }
        }
        logit
    }

    /// The real network of parameters `p`.
    fn network(&self, p: &[f32], scale: f32) -> FloatNetwork {
        FloatNetwork {
            hidden: self.hidden,
            buckets: self.buckets,
            activation: self.activation,
            scale: scale.round() as i32,
            w1: p[..self.b1()].to_vec(),
            b1: p[self.b1()..self.wo()].to_vec(),
            wo: p[self.wo()..self.bo()].to_vec(),
            bo: p[self.bo()..].to_vec(),
        }
    }

    /// Keeps the weights where the quantised network can hold them.
    fn clip(&self, p: &mut [f32]) {
        let w1_limit = ((32767 - 2 * QA) / 24) as f32 / QA as f32;
        for w in &mut p[..self.b1()] {
            *w = w.clamp(-w1_limit, w1_limit);
        }
        for w in &mut p[self.b1()..self.wo()] {
            *w = w.clamp(-2.0, 2.0);
        }
        if self.activation == Activation::SquaredClippedRelu {
            let limit = (32767 / QA) as f32 / QB as f32;
            let (wo, bo) = (self.wo(), self.bo());
            for w in &mut p[wo..bo] {
                *w = w.clamp(-limit, limit);
            }
        }
    }
}

/// Held-out log-loss against the result and mean squared error against the target.
fn held_out(shape: &Shape, p: &[f32], held: &[Sample], lambda: f32) -> (f64, f64) {
    let mut acc = vec![0f32; 2 * shape.hidden];
    let (mut ll, mut mse) = (0.0, 0.0);
    for s in held {
        let q = f64::from(sigmoid(shape.forward(p, s, &mut acc, None)));
        let (target, result) = s.labels(lambda);
        ll += log_loss(q, f64::from(result));
        mse += (q - f64::from(target)).powi(2);
    }
    let n = held.len().max(1) as f64;
    (ll / n, mse / n)
}

fn train(set: &DataSet, st: &Settings, out: Option<&str>) {
    let shape = Shape {
        hidden: st.hidden,
        buckets: st.buckets,
        activation: st.activation,
    };
    let h = st.hidden;
    let mut rng = SplitMix64::stream(st.seed, 0);
    let mut order: Vec<usize> = (0..set.train.len()).collect();
    if let Some(n) = st.max_positions.filter(|&n| n < order.len()) {
        // A seeded subsample.
        for i in 0..n {
            let j = i + rng.below(order.len() - i);
            order.swap(i, j);
        }
        order.truncate(n);
    }
    eprintln!(
        "train: {} positions, hidden {h}, buckets {}, {:?}, lambda {}, {} epochs of batches of {}, \
         rate {}, seed {}, {} threads",
        order.len(),
        st.buckets,
        st.activation,
        st.lambda,
        st.epochs,
        st.batch,
        st.rate,
        st.seed,
        st.threads
    );
    // Initial weights: small first-layer rows, biases in the activation's range.
    let mut p = vec![0f32; shape.len()];
    let uniform = |rng: &mut SplitMix64, a: f32| (rng.unit() as f32 * 2.0 - 1.0) * a;
    for w in &mut p[..shape.b1()] {
        *w = uniform(&mut rng, 0.15);
    }
    for w in &mut p[shape.b1()..shape.wo()] {
        *w = 0.3 + uniform(&mut rng, 0.1);
    }
    for w in &mut p[shape.wo()..shape.bo()] {
        *w = uniform(&mut rng, 1.0 / (2.0 * h as f32).sqrt());
    }
    let (mut m, mut v) = (vec![0f32; p.len()], vec![0f32; p.len()]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let batches = order.len().div_ceil(st.batch);
    let total_steps = (batches * st.epochs) as f32;
    let (ll, mse) = held_out(&shape, &p, &set.held, st.lambda);
    eprintln!("epoch 0: held-out log-loss {ll:.5}, mse {mse:.5}");
    let start = Instant::now();
    let mut grads: Vec<Vec<f32>> = (0..st.threads).map(|_| vec![0f32; p.len()]).collect();
    for epoch in 1..=st.epochs {
        // Fisher–Yates with the run's generator.
        for i in (1..order.len()).rev() {
            let j = rng.below(i + 1);
            order.swap(i, j);
        }
        let mut train_loss = 0.0f64;
        for batch in order.chunks(st.batch) {
            let part = batch.len().div_ceil(st.threads);
            let params = &p;
            let shape = &shape;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(part))
                    .map(|(g, chunk)| {
                        scope.spawn(move || {
                            g.fill(0.0);
                            let mut acc = vec![0f32; 2 * h];
                            let mut loss = 0.0f64;
                            for &i in chunk {
                                let s = &set.train[i];
                                let (target, _) = s.labels(st.lambda);
                                let logit = shape.forward(params, s, &mut acc, Some((g, target)));
                                loss += log_loss(f64::from(sigmoid(logit)), f64::from(target));
                            }
                            loss
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|t| t.join().unwrap_or(0.0))
                    .collect()
            });
            train_loss += losses.iter().sum::<f64>();
            let used = batch.chunks(part).count();
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                for (a, b) in first[0].iter_mut().zip(other) {
                    *a += b;
                }
            }
            // Adam, the rate falling along a cosine to a tenth.
            step += 1;
            let progress = step as f32 / total_steps;
            let rate =
                st.rate * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let n = batch.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for (((w, g), m), v) in p.iter_mut().zip(&first[0]).zip(&mut m).zip(&mut v) {
                let g = g / n;
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                *w -= rate * (*m / c1) / ((*v / c2).sqrt() + eps);
            }
            shape.clip(&mut p);
        }
        let (ll, mse) = held_out(&shape, &p, &set.held, st.lambda);
        eprintln!(
            "epoch {epoch}: training loss {:.5}, held-out log-loss {ll:.5}, mse {mse:.5} ({:.0} s)",
            train_loss / order.len() as f64,
            start.elapsed().as_secs_f64()
        );
    }
    let float = shape.network(&p, set.scale);
    let net = Network::quantise(&float).unwrap_or_else(|e| fail(&format!("quantising: {e}")));
    // The quantised network as the engine runs it, on the held-out positions.
    let (mut ll, mut mse) = (0.0, 0.0);
    for s in &set.held {
        let q = f64::from(sigmoid(net.evaluate(&s.pos) as f32 / set.scale));
        let (target, result) = s.labels(st.lambda);
        ll += log_loss(q, f64::from(result));
        mse += (q - f64::from(target)).powi(2);
    }
    let n = set.held.len().max(1) as f64;
    eprintln!(
        "quantised: held-out log-loss {:.5}, mse {:.5}",
        ll / n,
        mse / n
    );
    if let Some(path) = out {
        std::fs::write(path, net.to_bytes()).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        eprintln!("wrote {path}");
    }
}

/// The held-out log-loss of each evaluation as the engine computes it (endgame knowledge and
/// draw laws included), each with its own scale fitted on training positions.
fn compare(set: &DataSet, weights: &[String], nets: &[String]) {
    let laws = DrawLaws::for_variant(Variant::Tanzanian);
    let mut engines: Vec<(String, Engine)> = vec![(
        "pattern (shipped)".into(),
        Engine::new(Variant::Tanzanian, 0),
    )];
    let mut bare_patterns = Vec::new();
    for path in weights {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        let w = Weights::from_text(&text).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        bare_patterns.push((path.clone(), w.clone()));
        let mut engine = Engine::new(Variant::Tanzanian, 0);
        engine.set_weights(&w);
        engines.push((format!("pattern {path}"), engine));
    }
    let mut bare = Vec::new();
    for path in nets {
        let bytes = std::fs::read(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        let net = Network::from_bytes(&bytes).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        bare.push((path.clone(), net.clone()));
        let config = Config {
            nnue: 1,
            ..Config::default()
        };
        let mut engine = Engine::with_config(Variant::Tanzanian, 0, laws, config);
        engine.set_network(std::sync::Arc::new(net));
        engines.push((format!("network {path}"), engine));
    }
    let white = |engine: &Engine, pos: &Position| -> f64 {
        let s = f64::from(engine.evaluate(pos).raw());
        match pos.turn() {
            Color::White => s,
            Color::Black => -s,
        }
    };
    let fit: Vec<&Sample> = set
        .train
        .iter()
        .step_by((set.train.len() / 200_000).max(1))
        .collect();
    // Held-out positions by kind: the overall figure hides where an evaluation is weak.
    let kind = |pos: &Position| -> usize {
        if pos.kings(Color::White).0 | pos.kings(Color::Black).0 != 0 {
            2
        } else if pos.occupied().count() > 16 {
            0
        } else {
            1
        }
    };
    let mut sizes = [0usize; 4];
    for x in &set.held {
        sizes[kind(&x.pos)] += 1;
        sizes[3] += usize::from(!x.seen);
    }
    println!(
        "| evaluation | scale s | held-out log-loss ({} positions) | men only, 17+ pieces ({}) \
         | men only, up to 16 ({}) | with kings ({}) | in no training game ({}) |",
        set.held.len(),
        sizes[0],
        sizes[1],
        sizes[2],
        sizes[3]
    );
    println!("|---|---|---|---|---|---|---|");
    let row = |name: &str, s: f64, prob: &dyn Fn(&Sample) -> f64| {
        let mut sums = [0f64; 4];
        for x in &set.held {
            let loss = log_loss(prob(x), f64::from(x.result));
            sums[kind(&x.pos)] += loss;
            if !x.seen {
                sums[3] += loss;
            }
        }
        let mean = |k: usize| sums[k] / sizes[k].max(1) as f64;
        let total: f64 = sums[..3].iter().sum::<f64>() / set.held.len().max(1) as f64;
        println!(
            "| {name} | {s:.1} | {total:.5} | {:.5} | {:.5} | {:.5} | {:.5} |",
            mean(0),
            mean(1),
            mean(2),
            mean(3)
        );
    };
    for (name, engine) in &engines {
        let pairs: Vec<(f64, f64)> = fit
            .iter()
            .map(|s| (white(engine, &s.pos), f64::from(s.result)))
            .collect();
        let s = fit_scale_by(pairs.iter().copied());
        row(name, s, &|x: &Sample| {
            1.0 / (1.0 + (-white(engine, &x.pos) / s).exp())
        });
    }
    // Each evaluation alone, without the endgame knowledge and draw laws the engine puts on
    // top: what that layer costs or gains them.
    for (path, w) in &bare_patterns {
        let white = |pos: &Position| f64::from(drafti_engine::tuning::linear(pos, w));
        let pairs: Vec<(f64, f64)> = fit
            .iter()
            .map(|s| (white(&s.pos), f64::from(s.result)))
            .collect();
        let s = fit_scale_by(pairs.iter().copied());
        row(
            &format!("pattern {path} alone (no endgame knowledge)"),
            s,
            &|x: &Sample| 1.0 / (1.0 + (-white(&x.pos) / s).exp()),
        );
    }
    for (path, net) in &bare {
        let white = |pos: &Position| -> f64 {
            let v = f64::from(net.evaluate(pos));
            match pos.turn() {
                Color::White => v,
                Color::Black => -v,
            }
        };
        let pairs: Vec<(f64, f64)> = fit
            .iter()
            .map(|s| (white(&s.pos), f64::from(s.result)))
            .collect();
        let s = fit_scale_by(pairs.iter().copied());
        row(
            &format!("network {path} alone (no endgame knowledge)"),
            s,
            &|x: &Sample| 1.0 / (1.0 + (-white(&x.pos) / s).exp()),
        );
    }
    // The labels' own search scores, for reference: what a search of 10,000 nodes knows.
    row(
        "the data's search scores (10,000 nodes)",
        f64::from(set.scale),
        &|x: &Sample| f64::from(x.searched),
    );
}
