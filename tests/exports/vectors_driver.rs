//! Runs the board vectors through a generated Rust export (tests/test_exports.py), with the
//! same lines in and out as vectors_driver.c: "F:BOARD" in; "key=K sym=S value=V plies=P
//! top=... optimal=... scores=... hard=... medium=... easy=..." ('_' for a taken cell) or
//! "error=best,optimal,scores,value,canonical,candidates" out; "against" in, "against=" and
//! AGAINST out; the seeded vectors as the C driver answers them: "r SEED N", N numbers of
//! Rng::next_u32 from SEED ("numbers=a,b,..."); "g LEVEL SEED", the game choose plays through a
//! Position from the empty board at LEVELS[LEVEL] for both sides from Rng::new(SEED)
//! ("moves=a,b,... state=S").

use std::io::{self, BufRead, Write};

use tictactoe_book::{
    best_moves, canonical, candidates, choose, move_scores, optimal_moves, value, BoardError, Level, Position, Rng,
    AGAINST, CELLS, LEVELS,
};

/// The answer to "r SEED N" or "g LEVEL SEED", or None for another line.
fn seeded(line: &str) -> Option<String> {
    let mut words = line.split(' ');
    let (kind, a, b) = (words.next()?, words.next()?, words.next()?);
    match kind {
        "r" => {
            let mut rng = Rng::new(a.parse().ok()?);
            let count: usize = b.parse().ok()?;
            let numbers: Vec<String> = (0..count).map(|_| rng.next_u32().to_string()).collect();
            Some(format!("numbers={}", numbers.join(",")))
        }
        "g" => {
            let level = LEVELS[a.parse::<usize>().ok()?];
            let mut rng = Rng::new(b.parse().ok()?);
            let mut position = Position::empty();
            let mut moves = Vec::new();
            while !position.is_over() {
                let cell = choose(position.board(), level, &mut rng).expect("a move");
                position = position.play(cell).expect("a legal move");
                moves.push(cell);
            }
            Some(format!("moves={} state={}", joined(&moves), rng.state))
        }
        _ => None,
    }
}

fn joined(cells: &[usize]) -> String {
    cells.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
}

fn name<T>(result: &Result<T, BoardError>) -> &'static str {
    match result {
        Ok(_) => "",
        Err(error) => error.code(),
    }
}

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = line.expect("a line of text");
        if line == "against" {
            writeln!(out, "against={}", AGAINST).unwrap();
            continue;
        }
        if let Some(answer) = seeded(&line) {
            writeln!(out, "{}", answer).unwrap();
            continue;
        }
        let (first, board) = line.split_at(2);
        let board: String = if first == "O:" {
            board.chars().map(|m| match m { 'X' => 'O', 'O' => 'X', other => other }).collect()
        } else {
            board.to_string()
        };
        let (top, optimal, scores, outcome, key) =
            (best_moves(&board), optimal_moves(&board), move_scores(&board), value(&board), canonical(&board));
        let levels: Result<Vec<Vec<usize>>, BoardError> =
            [Level::Hard, Level::Medium, Level::Easy].iter().map(|&level| candidates(&board, level)).collect();
        match (&top, &optimal, &scores, &outcome, &key, &levels) {
            (Ok(top), Ok(optimal), Ok(scores), Ok(outcome), Ok((key, sym)), Ok(levels)) => {
                let scores: Vec<String> =
                    scores.iter().map(|s| s.map_or("_".to_string(), |s| s.to_string())).collect();
                assert_eq!(scores.len(), CELLS);
                writeln!(
                    out,
                    "key={} sym={} value={} plies={} top={} optimal={} scores={} hard={} medium={} easy={}",
                    key, sym, outcome.value, outcome.plies, joined(top), joined(optimal), scores.join(","),
                    joined(&levels[0]), joined(&levels[1]), joined(&levels[2])
                )
                .unwrap();
            }
            _ => writeln!(
                out,
                "error={},{},{},{},{},{}",
                name(&top), name(&optimal), name(&scores), name(&outcome), name(&key), name(&levels)
            )
            .unwrap(),
        }
    }
}
