//! Asks a generated Rust export about the text for people and the game with its history
//! (tests/test_export_notation.py), with the lines in and out of notation_driver.c, so that
//! the two are compared line for line and with Python's:
//!
//!   g BOARD        Position::grid: "grid=TEXT", its newlines shown as '/', or "error=NAME"
//!   m HEX BOARD    Position::parse_move of the text whose bytes are HEX ("-": empty):
//!                  "cell=C" or "error=NAME" (BoardError::code, MoveError::code)
//!   h START OPS    a Game from Position::new(START) ("-": Game::default()), then each of OPS
//!                  (comma-separated: a cell is Game::play, "u" Game::undo):
//!                  "ops=R,R,... board=B start=S moves=a,b,..." or "error=NAME"

use std::io::{self, BufRead, Write};

use tictactoe_book::{Game, MoveError, Position};

fn grid(board: &str) -> String {
    match Position::new(board) {
        Ok(position) => format!("grid={}", position.grid().replace('\n', "/")),
        Err(error) => format!("error={}", error.code()),
    }
}

fn parse(rest: &str) -> String {
    let (hex, board) = rest.split_once(' ').expect("HEX BOARD");
    let bytes: Vec<u8> = if hex == "-" {
        Vec::new()
    } else {
        (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
    };
    let text = String::from_utf8(bytes).expect("UTF-8 text");
    let position = match Position::new(board) {
        Ok(position) => position,
        Err(error) => return format!("error={}", error.code()),
    };
    match position.parse_move(&text) {
        Ok(cell) => {
            assert!(position.play(cell).is_ok());
            format!("cell={}", cell)
        }
        Err(error) => {
            if let MoveError::OffBoard(cell) = error {
                assert!(cell >= tictactoe_book::CELLS);
            }
            format!("error={}", error.code())
        }
    }
}

fn history(rest: &str) -> String {
    let (start, ops) = rest.split_once(' ').expect("START OPS");
    let mut game = if start == "-" {
        Game::default()
    } else {
        match Position::new(start) {
            Ok(position) => Game::new(position),
            Err(error) => return format!("error={}", error.code()),
        }
    };
    let mut results = Vec::new();
    for op in ops.split(',') {
        results.push(if op == "u" {
            game.undo().map_or("none".to_string(), |cell| cell.to_string())
        } else {
            let before = game.clone();
            match game.play(op.parse().expect("a cell")) {
                Ok(_) => "ok".to_string(),
                Err(error) => {
                    assert_eq!(game, before); // an error changes nothing
                    error.code().to_string()
                }
            }
        });
    }
    let moves: Vec<String> = game.moves().iter().map(|c| c.to_string()).collect();
    format!("ops={} board={} start={} moves={}", results.join(","), game.position(), game.start(), moves.join(","))
}

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = line.expect("a line of text");
        let answer = match line.split_at(2) {
            ("g ", board) => grid(board),
            ("m ", rest) => parse(rest),
            ("h ", rest) => history(rest),
            _ => "bad question".to_string(),
        };
        writeln!(out, "{}", answer).unwrap();
    }
}
