//! Asks a generated Rust export about the game (tests/test_exports.py), with the lines in and out
//! of game_driver.c, so that the two are compared line for line:
//!
//!   s BOARD               outcome, its line and legal_moves: "outcome=N line=a,b,c moves=a,b"
//!                         (N as the C export's TTT_IN_PROGRESS 0, TTT_X_WINS 1, TTT_O_WINS 2,
//!                         TTT_DRAW 3), or "error=NAME,NAME,NAME"
//!   t BOARD               turn: "turn=X" (or O) or "error=NAME"
//!   p CELL BOARD          play: "board=NEW" or "error=NAME"
//!   c LEVEL SEED BOARD    choose at LEVELS[LEVEL] from Rng::new(SEED): "cell=C state=S" or "error=NAME"
//!   r SEED COUNT          COUNT numbers of Rng::new(SEED), space-separated
//!   g LEVEL SIDE SEED N   N games at LEVELS[LEVEL] as SIDE against a player choosing among
//!                         legal_moves (number % count), one Rng: "won=W drawn=D lost=L"

use std::io::{self, BufRead, Write};

use tictactoe_book::{choose, legal_moves, outcome, play, turn, BoardError, Outcome, Mark, Rng, LEVELS, CELLS};

fn joined(cells: &[usize]) -> String {
    cells.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
}

fn number(ended: &Option<Outcome>) -> u32 {
    match ended {
        None => 0,
        Some(Outcome { winner: Some(Mark::X), .. }) => 1,
        Some(Outcome { winner: Some(Mark::O), .. }) => 2,
        Some(Outcome { winner: None, .. }) => 3,
    }
}

fn state(board: &str) -> String {
    let (ended, moves) = (outcome(board), legal_moves(board));
    match (&ended, &moves) {
        (Ok(ended), Ok(moves)) => {
            let line = ended.as_ref().map_or(String::new(), |e| joined(&e.line));
            format!("outcome={} line={} moves={}", number(ended), line, joined(moves))
        }
        _ => {
            let name = |e: Option<BoardError>| e.map_or("", |e| e.code());
            let (a, b) = (name(ended.clone().err()), name(moves.clone().err()));
            format!("error={},{},{}", a, a, b)
        }
    }
}

/// One game from the empty board: 1 won, 0 drawn, -1 lost for `side`.
fn game(level: usize, side: Mark, rng: &mut Rng) -> i32 {
    let mut board = ".".repeat(CELLS);
    loop {
        if let Some(ended) = outcome(&board).unwrap() {
            return match ended.winner {
                None => 0,
                Some(winner) if winner == side => 1,
                Some(_) => -1,
            };
        }
        let x_to_move = board.matches('X').count() == board.matches('O').count();
        let cell = if x_to_move == (side == Mark::X) {
            choose(&board, LEVELS[level], rng).unwrap()
        } else {
            let moves = legal_moves(&board).unwrap();
            moves[(rng.next_u32() % moves.len() as u32) as usize]
        };
        board = play(&board, cell).unwrap();
    }
}

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = line.expect("a line of text");
        let (request, rest) = line.split_at(2);
        let answer = match request {
            "s " => state(rest),
            "t " => match turn(rest) {
                Ok(mark) => format!("turn={}", mark),
                Err(error) => format!("error={}", error.code()),
            },
            "p " => {
                let (cell, board) = rest.split_once(' ').unwrap_or((rest, ""));
                match play(board, cell.parse().unwrap()) {
                    Ok(new) => format!("board={}", new),
                    Err(error) => format!("error={}", error.code()),
                }
            }
            "c " => {
                let mut words = rest.splitn(3, ' ');
                let level: usize = words.next().unwrap().parse().unwrap();
                let mut rng = Rng::new(words.next().unwrap().parse().unwrap());
                match choose(words.next().unwrap_or(""), LEVELS[level], &mut rng) {
                    Ok(cell) => format!("cell={} state={}", cell, rng.state),
                    Err(error) => format!("error={}", error.code()),
                }
            }
            "r " => {
                let words: Vec<u32> = rest.split(' ').map(|w| w.parse().unwrap()).collect();
                let mut rng = Rng::new(words[0]);
                (0..words[1]).map(|_| rng.next_u32().to_string()).collect::<Vec<_>>().join(" ")
            }
            "g " => {
                let words: Vec<&str> = rest.split(' ').collect();
                let side = if words[1] == "X" { Mark::X } else { Mark::O };
                let mut rng = Rng::new(words[2].parse().unwrap());
                let mut results = [0u32; 3];
                for _ in 0..words[3].parse::<u32>().unwrap() {
                    results[(game(words[0].parse().unwrap(), side, &mut rng) + 1) as usize] += 1;
                }
                format!("won={} drawn={} lost={}", results[2], results[1], results[0])
            }
            _ => format!("unknown request {}", line),
        };
        writeln!(out, "{}", answer).unwrap();
    }
}
