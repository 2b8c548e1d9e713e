// Types for the npm package tictactoe-book (index.js, which exports tictactoe-book.js whole,
// loadPackagedBook and openPartsBook). Written by hand beside the JavaScript; the package tests
// check that every value exported at run time is declared here and nothing more
// (tests/test_packages.py).
//
// Cells are numbered from 0 (0 to cells - 1: 0 to 8 on 3x3) in everything taken and returned,
// in reading order; show cell c to a person as c + 1 (Position's grid() does, and parseMove()
// reads a cell typed so back). A board is a string of `cells` characters: 'X' (the player who
// moved first in the book's terms), 'O', '.'.

/** The file format this reader reads: a book's `format` member. */
export declare const FORMAT: 'tictactoe-book';
/** The book format version loadBook reads (version 2 only). */
export declare const VERSION: 2;
/** The format version of a book by parts (docs/book-parts.md), which loadPartsBook reads. */
export declare const PARTS_VERSION: 3;

/** A mark on the board. */
export type Mark = 'X' | 'O';
/** The levels of chooseMove, strongest first. */
export type Level = 'perfect' | 'hard' | 'medium' | 'easy';
export declare const LEVELS: readonly Level[];
/** Whom a book's trap order plays to beat first (a book's trap_order.against). */
export type Opponent = 'novice' | 'random';

/** Why a book is refused, in the order of the steps that check them (docs/book-format.md). */
export type ReasonCode =
  | 'unreadable' | 'limits' | 'json' | 'format' | 'version' | 'rules' | 'lines' | 'symmetries'
  | 'entries' | 'counts' | 'entry-key' | 'entry-shape' | 'missing-entry' | 'entry-inconsistent';
export declare const REASON_CODES: readonly ReasonCode[];
/** Why a book by parts is refused beyond REASON_CODES: its list of parts, a part's file missing, not the bytes the manifest names, or not laid out as a part. */
export type PartsReasonCode = 'parts' | 'part-missing' | 'part-hash' | 'part-format';
export declare const PARTS_REASON_CODES: readonly PartsReasonCode[];

/** Why a board cannot be answered, in the order the checks run. */
export type BoardErrorCode = 'length' | 'character' | 'counts' | 'unreachable' | 'over';

/** A book that cannot be used; the message names the source (a part's file, for a book by parts) and ends with [code]. */
export declare class BookError extends Error {
  constructor(code: ReasonCode | PartsReasonCode, message: string);
  code: ReasonCode | PartsReasonCode;
}

/** A board that cannot be answered. */
export declare class BoardError extends Error {
  constructor(code: BoardErrorCode, message: string);
  code: BoardErrorCode;
}

/** Strict JSON (docs/book-format.md, "Strict JSON"); objects come without a prototype. Throws SyntaxError. */
export declare function parseStrictJSON(text: string): unknown;
/** Every winning line of a rows x cols board with k in a row, as lists of cells. */
export declare function deriveLines(rows: number, cols: number, k: number): number[][];
/** The symmetries of a rows x cols board as permutations, the identity first. */
export declare function deriveSymmetries(rows: number, cols: number): number[][];

/** The game a caller plays: a book for other rules is refused with the code 'rules'. */
export interface GameRules {
  rows: number;
  cols: number;
  k: number;
  /** false when left out */
  misere?: boolean;
}

export interface LoadOptions {
  /**
   * The game the caller plays; left out or null, the book is read by its own rules. Checked as a
   * Position's rules: a member of the wrong type is a TypeError, rules of no game (over 20 cells,
   * k longer than both sides) a RulesError.
   */
  rules?: GameRules | null;
  /** Names the book in messages (whole up to 4,096 characters, then cut and its length given). */
  source?: string;
}

/**
 * A book file: its bytes (checked as UTF-8 without a byte-order mark), its text already decoded,
 * or the object parsed from it (JSON.parse's, or `import book from
 * 'tictactoe-book/books/tictactoe.json' with { type: 'json' }`), written back as JSON and proven
 * like the text.
 */
export type BookInput = Uint8Array | ArrayBuffer | string | object;

/**
 * Prove a book and return a reader for it; throws BookError with the first failing step's code.
 * A book in one file has at most 16 cells ('rules' past them); a bigger board (up to 20 cells,
 * 4x5) has a book by parts: loadPartsBook.
 */
export declare function loadBook(input: BookInput, options?: LoadOptions | null): Reader;

/** The most bytes a book may have (64 MiB): loadBook refuses more, readBookResponse reads no more. */
export declare const MAX_BOOK_BYTES: number;

export interface ReadResponseOptions {
  /** Names the book in messages, as LoadOptions.source. */
  source?: string;
  /** Called after each part of the body: the bytes so far, and the Content-Length (0 when unknown). */
  progress?: ((received: number, total: number) => void) | null;
}

/**
 * A book's bytes from a fetch Response, read no further than MAX_BOOK_BYTES: a longer
 * Content-Length, or a body that passes it (the body cancelled there), rejects with BookError
 * 'limits'; a body that cannot be read, 'unreadable'. Pass the bytes to loadBook or loadBookCached.
 */
export declare function readBookResponse(response: Response, options?: ReadResponseOptions | null): Promise<Uint8Array>;

/** The storage item recording a proven book: this prefix, then the SHA-256 of its bytes in hex. */
export declare const PROVEN_PREFIX: string;
/** The lowercase hex SHA-256 of `bytes` (Web Crypto). */
export declare function sha256Hex(bytes: Uint8Array | ArrayBuffer): Promise<string>;

/** The part of Web Storage (localStorage) that loadBookCached uses. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface CachedLoadOptions extends LoadOptions {
  storage?: StorageLike;
  /** Books larger than this many bytes are recorded as proven (default 1,000,000). */
  recordAbove?: number;
}

/** loadBook that proves a big book at most once per browser (its SHA-256 recorded in `storage`). */
export declare function loadBookCached(input: BookInput, options?: CachedLoadOptions | null): Promise<Reader>;

/** 1 win, 0 draw, -1 loss, for the side to move. */
export type Value = 1 | 0 | -1;

/**
 * A move's value with best play after it: value and plies to the end (the move counted), as
 * Python's MoveValue (Evaluation.outcome(cell) returns one). Before 3.0.0 this type was called
 * `Outcome`, which now names a game's result, as in Python.
 */
export interface MoveValue {
  value: Value;
  plies: number;
}

/** The book's answer for a board, in the board's own orientation and marks. */
export interface Evaluation {
  board: string;
  first: Mark;
  /** the mark to move */
  turn: Mark;
  value: Value;
  valueWord: 'win' | 'draw' | 'loss';
  /** plies to the end with best play */
  plies: number;
  /** the canonical key of the board's entry */
  key: string;
  /** the index of the symmetry that gives the key */
  symmetry: number;
  /** every cell's score, null on an occupied cell */
  scores: (number | null)[];
  /** the optimal moves in trap order, each tier sorted */
  tiers: number[][];
  /** every optimal move, increasing */
  optimal: number[];
  /** the value and plies if the side to move plays `cell`; IllegalMoveError for a cell that is taken, off the board or no cell */
  outcome(cell: number): MoveValue;
}

/** The rules a book states, with its winning lines derived. */
export interface BookRules {
  readonly rows: number;
  readonly cols: number;
  readonly k: number;
  readonly misere: boolean;
  readonly cells: number;
  readonly first: 'X';
  readonly second: 'O';
  readonly empty: '.';
  readonly lines: readonly (readonly number[])[];
}

export interface EvaluateOptions {
  /** The mark that moved first in the game (default 'X'). */
  first?: Mark;
}

export interface ChooseOptions extends EvaluateOptions {
  /** default 'perfect' */
  level?: Level;
  /**
   * What draws the choice: `new Rng(seed)` plays the game every language plays from that seed
   * (docs/porting.md, "5. Levels"); left out (with `random`), a generator of the system's seeding.
   */
  rng?: Rng;
  /**
   * The choice as before 3.0.0, instead of `rng` (not both: a TypeError): a number in [0, 1), as
   * Math.random returns one, taken as floor(random() * n). Those games are JavaScript's alone.
   */
  random?: () => number;
}

/** The largest seed, 2^32 - 1: a seed is the generator's 32-bit state. */
export declare const MAX_SEED: 4294967295;

/**
 * The random numbers the levels choose with, the same in every language (Python's Rng, C's
 * ttt_random, Rust's Rng, the engine's seed): mulberry32 from `seed`, a whole number from 0 to
 * MAX_SEED (TypeError for what is no number, RangeError out of range).
 */
export declare class Rng {
  constructor(seed: number);
  /** The generator's state, itself a seed: a generator made from it goes on where this one is. */
  state: number;
  /** The next number, 0 to 2^32 - 1. */
  nextU32(): number;
  /** An index from 0 to count - 1, each as likely; nothing is drawn for count 1 (RangeError unless 1 to 2^32). */
  pick(count: number): number;
  /** One of `items` (pick). */
  choice<T>(items: readonly T[]): T;
}

/** Rules that describe no board the reader plays (rows, cols, k, misere out of bounds). */
export declare class RulesError extends Error {
  constructor(message: string);
}

/** A move off the board, onto a taken cell, or after the game is over. */
export declare class IllegalMoveError extends Error {
  constructor(message: string);
}

/** The rules of a Position: the game's shape and whether completing a line loses. */
export interface PositionRules {
  readonly rows: number;
  readonly cols: number;
  readonly k: number;
  readonly misere: boolean;
}

/**
 * How a game ended, by the rules (Position.outcome(); Python's Outcome): `winner` 'X', 'O' or
 * null for a draw (under misère the side that completed the line loses, so the other wins), and
 * the completed line's cells (the first of the rules' lines it owns; empty for a draw). Before
 * 3.0.0 this type was called `GameOutcome`, and `Outcome` named a move's value (now MoveValue).
 */
export interface Outcome {
  readonly winner: Mark | null;
  readonly line: readonly number[];
  /** the mark that completed the line (under misère, the loser); null for a draw */
  readonly completedBy: Mark | null;
}
/** @deprecated Since 3.0.0: use Outcome (the same type). */
export type GameOutcome = Outcome;

/**
 * Rules spelt as the command lines take them (Python's Rules.parse): "RxC", "RxC:K" ("3x4:3"),
 * either followed by ":misere" ("3x3:3:misere"; "misère" too), any case, spaces around; k is
 * min(R, C) when left out. Returns the frozen rules a Position has; RulesError for another
 * spelling or rules of no game.
 */
export declare function parseRules(text: string): PositionRules;

/**
 * A position of a game, immutable: its board (rows * cols characters in reading order, 'X',
 * 'O', '.'), its rules (3x3, three in a row, by default; any board up to 20 cells) and the mark
 * that moved first ('X' by default). The board is checked as the reader checks one (BoardError:
 * length, character, counts, unreachable), a finished game included; bad rules throw RulesError.
 */
export declare class Position {
  /** `rules` as an object, or spelt as parseRules reads them ('3x4:3'). */
  constructor(board: string, rules?: GameRules | string, first?: Mark);
  /** The start of a game. */
  static empty(rules?: GameRules | string, first?: Mark): Position;
  readonly board: string;
  readonly rules: PositionRules;
  readonly first: Mark;
  /** The mark to move next. */
  readonly turn: Mark;
  /** True once a line is complete or no cell is free. */
  readonly isOver: boolean;
  /** The free cells in increasing order; none once the game is over. */
  legalMoves(): number[];
  /** A new position with `cell` taken by the side to move; throws IllegalMoveError. */
  play(cell: number): Position;
  /** null while the game goes on, else who won by the rules and the completed line. */
  outcome(): Outcome | null;
  /**
   * The board as a grid for people, free cells numbered 1 to cells, no final newline (the
   * first row of 'X...O...X' is ' X | 2 | 3').
   */
  grid(): string;
  /**
   * The cell (0 up) a player means by `text`, a number from 1 to cells with spaces around it
   * allowed; IllegalMoveError naming the text unless it is a free cell of a game that goes on.
   */
  parseMove(text: string): number;
  toString(): string;
}

/** position.grid(). */
export declare function grid(position: Position): string;
/** position.parseMove(text). */
export declare function parseMove(text: string, position: Position): number;

/**
 * A game with its history (Python's Game): the position it began from, the moves since, and
 * undo. Positions are immutable; a Game changes as it is played.
 */
export declare class Game {
  /** From `start` (the empty 3x3 board when left out or null); TypeError for what is no Position. */
  constructor(start?: Position | null);
  /** The position the game began from. */
  readonly start: Position;
  /** The position now. */
  readonly position: Position;
  /** The cells played since `start`, in order (a frozen copy). */
  readonly moves: readonly number[];
  /** Play `cell` for the side to move and return the new position; IllegalMoveError changes nothing. */
  play(cell: number): Position;
  /** Take the last move back and return its cell; null when no move was played since `start`. */
  undo(): number | null;
}

/**
 * A reference opponent (player/tictactoe_book/opponents.py's registry): its name, how a sentence names it, who
 * it is under each rules, and its preference on sets of cells as bits (bit c for cell c): the
 * free cells, those completing a line of its own, those completing one of the other side's.
 */
export interface ReferenceOpponent {
  readonly name: Opponent;
  readonly words: string;
  readonly plays: string;
  readonly playsMisere: string;
  prefers(free: number, wins: number, blocks: number): number;
  prefersMisere(free: number, wins: number, blocks: number): number;
}

/** The reference opponents, in the order the trap order breaks ties (the first is the default). */
export declare const OPPONENTS: readonly ReferenceOpponent[];
/** The reference opponent called `name`; RangeError otherwise. */
export declare function opponentNamed(name: string): ReferenceOpponent;
/** The opponents a trap order ranked against `against` compares by, `against` first. */
export declare function ranking(against: string): ReferenceOpponent[];
/** Who `opponent` is under `rules`, in a few words: its `plays`, or its `playsMisere` under misère. */
export declare function opponentPlays(opponent: ReferenceOpponent, rules: { readonly misere?: boolean }): string;
/** The cells `opponent` picks among (uniformly) when it is to move in `position`. */
export declare function opponentMoves(opponent: ReferenceOpponent, position: Position): number[];

/** A board as a string, or a Position (its rules must be the book's). */
export type BoardInput = string | Position;

/** A proven book, as loadBook and loadPackagedBook return it. */
export interface Reader {
  /** whom the trap order is ranked to beat first: 'novice' or 'random' */
  readonly against: string;
  readonly rules: BookRules;
  readonly cells: number;
  readonly perms: readonly (readonly number[])[];
  /**
   * The marks that own a complete line on `board`: who completed a line, not who won (under
   * misère the owner of a line loses; `Position.outcome()` says who won).
   */
  lineOwners(board: string): Set<Mark>;
  /** @deprecated Since 3.0.0; removed in 4.0.0: use `lineOwners` (the same Set; under misère its marks lose). */
  winners(board: string): Set<Mark>;
  /** The board's canonical key and the index of the first symmetry giving it. */
  canonical(board: string): { key: string; index: number };
  /** Throws BoardError unless `board` is playable in a game `first` began. */
  check(board: string, first: Mark): void;
  /** The book's answer for a board, or a Position of the book's rules (its `first` is used). */
  evaluate(board: BoardInput, options?: EvaluateOptions | null): Evaluation;
  /** The top tier of the trap order: the moves the perfect level chooses among. */
  bestMoves(board: BoardInput, options?: EvaluateOptions | null): number[];
  /** Every optimal move. */
  optimalMoves(board: BoardInput, options?: EvaluateOptions | null): number[];
  /** The cells `level` chooses among, uniformly. */
  candidates(evaluation: Evaluation, level: Level): number[];
  /** The computer's move at a level. */
  chooseMove(board: BoardInput, options?: ChooseOptions | null): number;
}

/**
 * A book by parts (docs/book-parts.md), as openPartsBook, fetchPartsBook and loadPartsBook return
 * it, of any board up to 20 cells (a version-2 book has at most 16): the same answers as a
 * Reader of a version-2 book holding its entries (the Python reader's), each a Promise, since
 * the parts an answer needs (its position's and its successors') may have to be read first.
 * Each part is checked against the manifest's length and SHA-256 before it is used; a damaged
 * one rejects with BookError ('part-missing', 'part-hash', 'part-format', 'entry-shape'), and an
 * entry that does not follow from its successors with 'missing-entry' or 'entry-inconsistent'.
 */
export interface PartsReader {
  readonly against: string;
  readonly rules: BookRules;
  readonly cells: number;
  readonly perms: readonly (readonly number[])[];
  /** The manifest's parts, in its order. */
  readonly parts: readonly BookPart[];
  /** How many part files have been read (a part dropped from the cache and needed again is read again). */
  readonly reads: number;
  /** How many bytes of part files have been read. */
  readonly bytesRead: number;
  /** The marks that own a complete line on `board` (as `Reader.lineOwners`). */
  lineOwners(board: string): Set<Mark>;
  /** @deprecated Since 3.0.0; removed in 4.0.0: use `lineOwners`. */
  winners(board: string): Set<Mark>;
  canonical(board: string): { key: string; index: number };
  check(board: string, first: Mark): void;
  evaluate(board: BoardInput, options?: EvaluateOptions | null): Promise<Evaluation>;
  bestMoves(board: BoardInput, options?: EvaluateOptions | null): Promise<number[]>;
  optimalMoves(board: BoardInput, options?: EvaluateOptions | null): Promise<number[]>;
  candidates(evaluation: Evaluation, level: Level): number[];
  chooseMove(board: BoardInput, options?: ChooseOptions | null): Promise<number>;
}

/** One item of a manifest's `parts`: a file of the folder holding the entries of one layer (marks) and range of keys. */
export interface BookPart {
  readonly file: string;
  readonly layer: number;
  readonly first: string;
  readonly last: string;
  readonly entries: number;
  readonly bytes: number;
  readonly sha256: string;
}

export interface PartsOptions extends LoadOptions {
  /** How many parts to hold at once, least recently used dropped first (default 64; never fewer than cells + 2). */
  cacheParts?: number;
  /** The lowercase hex SHA-256 of a part's bytes (default: Web Crypto's). */
  sha256?: (bytes: Uint8Array) => string | Promise<string>;
  /**
   * A part's zlib stream inflated, at most `limit` bytes (default: DecompressionStream('deflate'));
   * throws when the bytes are not exactly one zlib stream or inflate to more.
   */
  inflate?: (bytes: Uint8Array, limit: number) => Uint8Array | Promise<Uint8Array>;
}

export interface LoadPartsOptions extends PartsOptions {
  /**
   * The bytes of the part file `file` of the manifest's folder; the manifest says it has `bytes`
   * of them, and the function may stop reading after bytes + 1. Whatever it throws makes the
   * part 'part-missing'.
   */
  readPart: (file: string, bytes: number) => Uint8Array | ArrayBuffer | Promise<Uint8Array | ArrayBuffer>;
}

/** Check a book by parts' manifest (its bytes or text) and return its reader; no part is read until an answer needs it. Throws BookError. */
export declare function loadPartsBook(manifest: Uint8Array | ArrayBuffer | string, options: LoadPartsOptions): PartsReader;

export interface FetchPartsOptions extends PartsOptions {
  /** default: globalThis.fetch */
  fetch?: (url: string) => Promise<Response>;
}

/**
 * A book by parts over HTTP: `where` is its folder's URL (or its manifest.json's), relative to
 * the page; the parts are fetched by plain GET from beside the manifest. Rejects with BookError.
 */
export declare function fetchPartsBook(where: string | URL, options?: FetchPartsOptions | null): Promise<PartsReader>;

/**
 * A book by parts: in Node, from the file system (`where`: its folder or manifest.json, a path or
 * a file: URL; node:crypto and node:zlib); in browsers and bundles, fetchPartsBook. Rejects with BookError.
 */
export declare function openPartsBook(where: string | URL, options?: PartsOptions | null): Promise<PartsReader>;

/** A book the package ships. */
export interface PackagedBook {
  readonly file: string;
  readonly misere: boolean;
  readonly against: Opponent;
}
export declare const PACKAGED_BOOKS: readonly PackagedBook[];

export interface PackagedBookOptions {
  /** the misère book: completing a line loses (default false) */
  misere?: boolean;
  /** whom its moves are ranked to beat first (default 'novice') */
  against?: Opponent;
}

/** Load and prove a book the package ships (3x3, or 3x3 misère); rejects with BookError. */
export declare function loadPackagedBook(options?: PackagedBookOptions | null): Promise<Reader>;
