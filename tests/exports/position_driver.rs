//! Asks a generated Rust export's `Position` about boards (tests/test_export_game.py compares each
//! line with what Python's `tictactoe_book.Position` and the book say): one board a line in, one
//! line out,
//!
//!   error=NAME            Position::new refused the board (BoardError::code)
//!   turn=M over=B outcome=W/LINE/BY moves=a,b plays=R0;R1;...;RN best=a,b value=V/P
//!
//! M the mark to move, B 1 or 0, W the winner (X, O or - for a draw), LINE the completed line's
//! cells, BY the mark that completed it (-: none), or outcome=- while the game goes on; Ri what
//! play(i) gives for every cell i from 0 to CELLS (one off the board): the new position's board,
//! or the error's code (MoveError::code: over, illegal-move) and its variant; best_moves and value
//! of the position's board, or error:NAME.

use std::io::{self, BufRead, Write};

use tictactoe_book::{best_moves, value, Outcome, Mark, MoveError, Position, CELLS};

fn joined(cells: &[usize]) -> String {
    cells.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
}

fn mark(mark: Option<Mark>) -> String {
    mark.map_or("-".to_string(), |m| m.to_string())
}

fn outcome(ended: Option<Outcome>) -> String {
    match ended {
        None => "-".to_string(),
        Some(ended) => format!("{}/{}/{}", mark(ended.winner), joined(&ended.line), mark(ended.completed_by)),
    }
}

fn played(position: &Position, cell: usize) -> String {
    match position.play(cell) {
        Ok(next) => {
            // immutable: the position played from is as it was
            assert_ne!(next, *position);
            next.to_string()
        }
        Err(error) => {
            let variant = match error {
                MoveError::Board(board) => format!("Board({:?})", board),
                MoveError::OffBoard(_) => "OffBoard".to_string(),
                MoveError::Taken(_) => "Taken".to_string(),
                MoveError::NotANumber => "NotANumber".to_string(), // parse_move's only
            };
            format!("{}:{}", error.code(), variant)
        }
    }
}

fn describe(position: &Position) -> String {
    let plays: Vec<String> = (0..=CELLS).map(|cell| played(position, cell)).collect();
    let best = best_moves(position.board()).map_or_else(|e| format!("error:{}", e.code()), |m| joined(&m));
    let value = value(position.board()).map_or_else(|e| format!("error:{}", e.code()), |o| format!("{}/{}", o.value, o.plies));
    format!(
        "turn={} over={} outcome={} moves={} plays={} best={} value={}",
        position.turn(),
        u8::from(position.is_over()),
        outcome(position.outcome()),
        joined(&position.legal_moves()),
        plays.join(";"),
        best,
        value
    )
}

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let board = line.expect("a line of text");
        let answer = match Position::new(&board) {
            Ok(position) => {
                assert_eq!(position.board(), board);
                describe(&position)
            }
            Err(error) => format!("error={}", error.code()),
        };
        writeln!(out, "{}", answer).unwrap();
    }
}
