//! Generated with the crate by `${command}`; do not edit. The game walked from
//! the empty board through `legal_moves` and `play`, every position against the book's scores,
//! perfect play against every opposing line, the generator, the levels, the errors, a game
//! played through `Position`, a `Game` played and taken back, and the grid and the moves read
//! as people number the cells.

use std::collections::{HashMap, HashSet};
use std::error::Error;

use ${crate_lib}::*;

fn empty() -> String {
    ".".repeat(CELLS)
}

fn mover(board: &str) -> Mark {
    if board.matches('X').count() == board.matches('O').count() { Mark::X } else { Mark::O }
}

/// Every position reachable from the empty board, each once.
fn reachable() -> Vec<String> {
    let mut seen = HashSet::new();
    let mut frontier = vec![empty()];
    seen.insert(empty());
    let mut found = Vec::new();
    while let Some(board) = frontier.pop() {
        for cell in legal_moves(&board).unwrap() {
            let child = play(&board, cell).unwrap();
            if seen.insert(child.clone()) {
                frontier.push(child);
            }
        }
        found.push(board);
    }
    found
}

#[test]
fn every_position_played_agrees_with_the_books_scores() {
    let mut finished = 0;
    for board in reachable() {
        let moves = legal_moves(&board).unwrap();
        if let Some(ended) = outcome(&board).unwrap() {
            finished += 1;
            assert!(moves.is_empty(), "{}", board);
            assert_eq!(value(&board), Err(BoardError::Over));
            assert_eq!(ended.line.len(), if ended.winner.is_some() { K } else { 0 }, "{}", board);
            continue;
        }
        assert!(!moves.is_empty(), "{}", board);
        let scores = move_scores(&board).unwrap();
        let free: Vec<usize> = (0..CELLS).filter(|&c| scores[c].is_some()).collect();
        assert_eq!(moves, free, "{}", board);
        for cell in moves {
            let child = play(&board, cell).unwrap();
            let score = scores[cell].unwrap();
            match outcome(&child).unwrap() {
                // the move ends the game: the book scores a win or a loss in 1 ply, or a draw
                Some(ended) => {
                    let expected = match ended.winner {
                        None => 0,
                        Some(winner) if winner == mover(&board) => CELLS as i32,
                        Some(_) => -(CELLS as i32),
                    };
                    assert_eq!(score, expected, "{} at {}", board, cell);
                }
                // one ply on, the child's value from the other side
                None => {
                    let after = value(&child).unwrap();
                    let expected = match after.value {
                        0 => 0,
                        1 => -(CELLS as i32 + 1 - (after.plies as i32 + 1)),
                        _ => CELLS as i32 + 1 - (after.plies as i32 + 1),
                    };
                    assert_eq!(score, expected, "{} at {}", board, cell);
                }
            }
        }
    }
    assert!(finished > 0);
}

/// The worst result (1, 0, -1) for `side` playing every perfect candidate against every line.
fn worst(board: &str, side: Mark, seen: &mut HashMap<String, i32>) -> i32 {
    if let Some(&known) = seen.get(board) {
        return known;
    }
    let result = match outcome(board).unwrap() {
        Some(ended) => match ended.winner {
            None => 0,
            Some(winner) if winner == side => 1,
            Some(_) => -1,
        },
        None => {
            let moves = if mover(board) == side {
                candidates(board, Level::Perfect).unwrap()
            } else {
                legal_moves(board).unwrap()
            };
            moves.iter().map(|&cell| worst(&play(board, cell).unwrap(), side, seen)).min().unwrap()
        }
    };
    seen.insert(board.to_string(), result);
    result
}

#[test]
fn perfect_play_holds_the_games_value_against_every_line() {
    let start = value(&empty()).unwrap().value; // for X, who moves first
    assert_eq!(worst(&empty(), Mark::X, &mut HashMap::new()), start);
    assert_eq!(worst(&empty(), Mark::O, &mut HashMap::new()), -start);
}

#[test]
fn the_generator_is_mulberry32() {
    // the first numbers of Tommy Ettinger's published mulberry32 from these seeds
    for (seed, numbers) in [(0, [1144304738, 1416247, 958946056]), (1, [2693262067, 11749833, 2265367787])] {
        let mut rng = Rng::new(seed);
        assert_eq!([rng.next_u32(), rng.next_u32(), rng.next_u32()], numbers);
    }
}

#[test]
fn choose_plays_a_candidate_and_repeats_itself_from_one_seed() {
    for level in LEVELS {
        let (mut one, mut again) = (Rng::new(7), Rng::new(7));
        let mut seen = HashSet::new();
        for _ in 0..50 {
            let cell = choose(&empty(), level, &mut one).unwrap();
            assert!(candidates(&empty(), level).unwrap().contains(&cell));
            assert_eq!(choose(&empty(), level, &mut again).unwrap(), cell);
            seen.insert(cell);
        }
        assert_eq!(seen.len(), candidates(&empty(), level).unwrap().len(), "{}", level.name());
        assert_eq!(level.name().parse::<Level>(), Ok(level));
    }
    assert_eq!(candidates(&empty(), Level::Perfect), best_moves(&empty()));
}

#[test]
fn errors_say_what_was_wrong() {
    let start = empty();
    assert_eq!(play(&start, CELLS), Err(MoveError::OffBoard(CELLS)));
    let after = play(&start, 0).unwrap();
    assert_eq!(play(&after, 0), Err(MoveError::Taken(0)));
    let second = play(&after, 1).unwrap(); // XO...: a cell O holds is taken too
    assert_eq!(play(&second, 1), Err(MoveError::Taken(1)));
    assert_eq!(play("X", 0), Err(MoveError::Board(BoardError::Length)));
    let mut board = start;
    while let Some(&cell) = legal_moves(&board).unwrap().first() {
        board = play(&board, cell).unwrap();
    }
    assert!(outcome(&board).unwrap().is_some());
    let over = play(&board, 0).unwrap_err();
    assert_eq!((over, over.code()), (MoveError::Board(BoardError::Over), "over"));
    let boxed: Box<dyn Error> = Box::new(over);
    assert_eq!(boxed.source().map(|e| e.to_string()), Some("bad board: over".to_string()));
    assert_eq!(MoveError::Taken(0).code(), "illegal-move");
    assert_eq!("expert".parse::<Level>(), Err(UnknownLevel("expert".to_string())));
}

#[test]
fn a_position_plays_a_game_and_stays_as_it_was() {
    let start = Position::empty();
    assert_eq!((Position::new(&empty()), Position::default()), (Ok(start), start));
    assert_eq!((start.turn(), start.to_string()), (Mark::X, empty()));
    assert_eq!(format!("{:?}", start), format!("Position({:?})", empty()));
    let next = start.play(0).unwrap();
    assert_eq!((start.board(), next.board()), (empty().as_str(), play(&empty(), 0).unwrap().as_str()));
    assert_eq!((next.turn(), next.legal_moves()), (Mark::O, (1..CELLS).collect::<Vec<_>>()));
    assert_eq!(best_moves(next.board()), best_moves(&next.to_string()));
    assert_eq!(next.play(0), Err(MoveError::Taken(0)));
    assert_eq!(next.play(CELLS), Err(MoveError::OffBoard(CELLS)));
    assert_eq!(Position::new("X"), Err(BoardError::Length));
    let mut position = next;
    while let Some(&cell) = position.legal_moves().first() {
        position = position.play(cell).unwrap();
    }
    let ended = position.outcome().unwrap();
    assert!(position.is_over() && position.legal_moves().is_empty());
    assert_eq!(position.play(0), Err(MoveError::Board(BoardError::Over)));
    assert_eq!(outcome(position.board()), Ok(Some(ended.clone())));
    match (ended.winner, ended.completed_by) {
        (None, None) => assert!(ended.line.is_empty()),
        // completing a line wins; under misère it loses
        (Some(winner), Some(by)) => assert_eq!((winner == by, ended.line.len()), (!MISERE, K)),
        other => panic!("{:?}", other),
    }
}

#[test]
fn a_game_keeps_its_moves_and_takes_them_back() {
    let mut game = Game::default();
    assert_eq!((game.start(), game.position(), game.moves()), (&Position::empty(), &Position::empty(), &[][..]));
    assert_eq!(game.undo(), None);
    assert_eq!(game.play(4).map(|p| p.turn()), Ok(Mark::O));
    let before = game.clone();
    assert_eq!(game.play(4), Err(MoveError::Taken(4)));
    assert_eq!(game.play(CELLS), Err(MoveError::OffBoard(CELLS)));
    assert_eq!(game, before); // an error changes nothing
    game.play(0).unwrap();
    assert_eq!(game.moves(), &[4, 0][..]);
    assert_eq!(*game.position(), Position::empty().play(4).unwrap().play(0).unwrap());
    assert_eq!((game.undo(), game.moves()), (Some(0), &[4][..]));
    assert_eq!(game.position().board(), play(&empty(), 4).unwrap());
    assert_eq!((game.undo(), game.undo(), game.position()), (Some(4), None, &Position::empty()));
    // from a position of its own, played to the end and taken back to it
    let start = Position::new(&play(&empty(), 1).unwrap()).unwrap();
    let mut game = Game::new(start);
    while let Some(&cell) = game.position().legal_moves().last() {
        game.play(cell).unwrap();
    }
    assert!(game.position().is_over() && !game.moves().is_empty());
    let over = game.play(0).unwrap_err();
    assert_eq!(over.code(), "over");
    while game.undo().is_some() {}
    assert_eq!((game.start(), game.position(), game.moves().len()), (&start, &start, 0));
}

#[test]
fn the_grid_numbers_the_free_cells_as_the_moves_are_read() {
    let start = Position::empty();
    let grid = start.grid();
    let width = CELLS.to_string().len();
    let rows: Vec<&str> = grid.split('\n').collect();
    assert_eq!(rows.len(), 2 * ROWS - 1);
    assert_eq!(rows[1], vec!["-".repeat(width + 2); COLS].join("+"));
    for (cell, text) in rows.iter().step_by(2).flat_map(|row| row[1..].split(" | ")).enumerate() {
        // every free cell shows its number from 1, and that number is read back as the cell
        assert_eq!(text, format!("{:>1$$}", cell + 1, width));
        assert_eq!(start.parse_move(text), Ok(cell));
        let taken = start.play(cell).unwrap();
        assert!(taken.grid().contains(&format!("{:>1$$}", "X", width)));
        assert_eq!(taken.parse_move(text), Err(MoveError::Taken(cell)));
    }
    assert_eq!(start.parse_move(" \t1\r\n"), Ok(0));
    for text in ["", " ", "x", "+1", "-1", "1.0", "1 2", "\u{0661}", "00000000000000001"] {
        assert_eq!(start.parse_move(text), Err(MoveError::NotANumber), "{:?}", text);
    }
    assert_eq!(MoveError::NotANumber.code(), "not-a-number");
    assert_eq!(start.parse_move("0000000000000001"), Ok(0));
    assert_eq!(start.parse_move("0"), Err(MoveError::OffBoard(usize::MAX)));
    let past = (CELLS + 1).to_string();
    assert_eq!(start.parse_move(&past), Err(MoveError::OffBoard(CELLS)));
    let mut position = start;
    while let Some(&cell) = position.legal_moves().first() {
        position = position.play(cell).unwrap();
    }
    assert_eq!(position.parse_move(&past), Err(MoveError::OffBoard(CELLS))); // the text first
    assert_eq!(position.parse_move("1"), Err(MoveError::Board(BoardError::Over)));
    assert_eq!(position.grid().len(), grid.len());
}
