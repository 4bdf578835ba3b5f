//! The compact event code the table engine (`crate::engine`) replays, and the tile text
//! of its messages.
//!
//! A code is a flat run of 64-bit words, one row per event of the record in its order
//! (the row's place is the event's index). A row is its kind's number
//! (`mjlog.replay.code`'s `K_*`, the constants of `kind` here) followed by its fields;
//! a list is its length then its items, an optional list is `-1` for none. The layout
//! of each kind is written once, in `mjlog/replay/code.py`'s docstring, and read here by
//! `decode`, which checks every length against what is left and so never reads past the
//! end: a malformed code is an error with its word's position, never a panic.

/// The unknown tile (a tile nobody wrote down): `mjlog.tiles.UNKNOWN`.
pub const UNKNOWN: usize = 144;
/// Tile slots: ids 0..=143 and the unknown tile.
pub const SLOTS: usize = UNKNOWN + 1;
/// The first flower id (`mjlog.tiles.FIRST_FLOWER`).
const FIRST_FLOWER: usize = 136;
/// Ids of the red fives (copy 0 of each five).
const RED_FIVES: [usize; 3] = [16, 52, 88];

/// The kinds of rows, as `mjlog.replay.code` numbers them.
pub mod kind {
    pub const NOOP: i64 = 0;
    pub const GAME_START: i64 = 1;
    pub const ROUND_START: i64 = 2;
    pub const DRAW: i64 = 3;
    pub const DISCARD: i64 = 4;
    pub const CHI: i64 = 5;
    pub const PON: i64 = 6;
    pub const OPEN_KAN: i64 = 7;
    pub const ADDED_KAN: i64 = 8;
    pub const CLOSED_KAN: i64 = 9;
    pub const KITA: i64 = 10;
    pub const FLOWER: i64 = 11;
    pub const RIICHI: i64 = 12;
    pub const READY: i64 = 13;
    pub const DORA: i64 = 14;
    pub const WIN: i64 = 15;
    pub const EXHAUSTIVE: i64 = 16;
    pub const ABORTIVE: i64 = 17;
    pub const CHOMBO: i64 = 18;
    pub const ROUND_END: i64 = 19;
    pub const GAME_END: i64 = 20;
    pub const DISCONNECT: i64 = 21;
    pub const RECONNECT: i64 = 22;
}

/// A call of another player's discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallKind {
    Chi,
    Pon,
    OpenKan,
}

/// A table's size (`mjlog.ruleset.TableSize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub tiles: i64,
    pub dead_wall: i64,
    pub hand: i64,
}

/// A win's claims (`Win.yaku`, `fu`, `han`, `points`, `limit`, `pao`): `yaku` is
/// (name id, han) pairs, flat; names and the limit are ids of
/// `mjlog.replay.code.claim_names` (-1: none of them); `pao` -1 for nobody.
#[derive(Debug, Clone, Copy)]
pub struct Claims<'a> {
    pub yaku: &'a [i64],
    pub fu: i64,
    pub han: i64,
    pub points: i64,
    pub limit: i64,
    pub pao: i64,
}

/// One decoded row; slices borrow the code's words (tiles and values as written,
/// unchecked: the engine judges them).
#[derive(Debug)]
pub enum Ev<'a> {
    /// An event that changes nothing and names nothing (a comment, an unknown element).
    Noop,
    GameStart {
        players: i64,
        size: Size,
        red_fives: bool,
        lost: bool,
        first_dealer: i64,
    },
    RoundStart {
        wind: i64,
        number: i64,
        honba: i64,
        kyotaku: i64,
        dealer: i64,
        dora: i64,
        results_only: bool,
        scores: &'a [i64],
        hands: Vec<&'a [i64]>,
    },
    Draw {
        player: i64,
        tile: i64,
        /// From the dead wall (a replacement draw after a kan or kita).
        rinshan: bool,
    },
    Discard {
        player: i64,
        tile: i64,
        riichi: bool,
    },
    Call {
        kind: CallKind,
        player: i64,
        from: i64,
        called: i64,
        tiles: &'a [i64],
    },
    AddedKan {
        player: i64,
        from: i64,
        called: i64,
        added: i64,
        tiles: &'a [i64],
    },
    ClosedKan {
        player: i64,
        tiles: &'a [i64],
    },
    Kita {
        player: i64,
        tile: i64,
    },
    Flower {
        player: i64,
        tile: i64,
        from: Option<i64>,
    },
    Riichi {
        player: i64,
        scores: Option<&'a [i64]>,
    },
    Ready {
        player: i64,
    },
    Dora {
        tile: i64,
    },
    Win {
        winner: i64,
        from: i64,
        win_tile: i64,
        hand: &'a [i64],
        dora: &'a [i64],
        ura: &'a [i64],
        deltas: &'a [i64],
        before: Option<&'a [i64]>,
        /// What the record claims of the win's value.
        claims: Claims<'a>,
    },
    DrawResult {
        abortive: bool,
        hands: i64,
        /// The seats whose hand is shown, as a bit mask (bit p: seat p).
        shown: i64,
        /// An abortive draw's kind: its index in `ABORTIVE_KINDS` (-1 for another kind and
        /// for an exhaustive draw).
        kind: i64,
        deltas: &'a [i64],
        before: Option<&'a [i64]>,
        /// An exhaustive draw's claim that its payments are nagashi mangan's.
        nagashi: bool,
    },
    Chombo {
        player: i64,
    },
    RoundEnd {
        scores: Option<&'a [i64]>,
    },
    GameEnd {
        scores: Option<&'a [i64]>,
        points: i64,
    },
    Seat {
        reconnect: bool,
        player: i64,
    },
}

impl Ev<'_> {
    /// The event's `TYPE` (its tag in JSON Lines), as the messages name it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Ev::Noop => "comment",
            Ev::GameStart { .. } => "game_start",
            Ev::RoundStart { .. } => "round_start",
            Ev::Draw { .. } => "draw",
            Ev::Discard { .. } => "discard",
            Ev::Call { kind, .. } => match kind {
                CallKind::Chi => "chi",
                CallKind::Pon => "pon",
                CallKind::OpenKan => "open_kan",
            },
            Ev::AddedKan { .. } => "added_kan",
            Ev::ClosedKan { .. } => "closed_kan",
            Ev::Kita { .. } => "kita",
            Ev::Flower { .. } => "flower",
            Ev::Riichi { .. } => "riichi_accepted",
            Ev::Ready { .. } => "ready_declared",
            Ev::Dora { .. } => "dora_reveal",
            Ev::Win { .. } => "win",
            Ev::DrawResult { abortive, .. } => {
                if *abortive {
                    "abortive_draw"
                } else {
                    "exhaustive_draw"
                }
            }
            Ev::Chombo { .. } => "chombo",
            Ev::RoundEnd { .. } => "round_end",
            Ev::GameEnd { .. } => "game_end",
            Ev::Seat { reconnect, .. } => {
                if *reconnect {
                    "reconnect"
                } else {
                    "disconnect"
                }
            }
        }
    }
}

/// A code that is not one: what is wrong and at which word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeError {
    pub word: usize,
    pub reason: &'static str,
}

impl std::fmt::Display for CodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "malformed event code at word {}: {}",
            self.word, self.reason
        )
    }
}

/// Reads words from a code, checking each length against what is left.
struct Reader<'a> {
    words: &'a [i64],
    at: usize,
}

impl<'a> Reader<'a> {
    fn fail<T>(&self, reason: &'static str) -> Result<T, CodeError> {
        Err(CodeError {
            word: self.at,
            reason,
        })
    }

    fn word(&mut self) -> Result<i64, CodeError> {
        match self.words.get(self.at) {
            Some(&w) => {
                self.at += 1;
                Ok(w)
            }
            None => self.fail("the code ends inside a row"),
        }
    }

    fn flag(&mut self) -> Result<bool, CodeError> {
        match self.word()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => self.fail("a flag that is neither 0 nor 1"),
        }
    }

    fn list(&mut self) -> Result<&'a [i64], CodeError> {
        match self.opt_list()? {
            Some(items) => Ok(items),
            None => self.fail("a list that may not be absent is"),
        }
    }

    fn opt_list(&mut self) -> Result<Option<&'a [i64]>, CodeError> {
        let len = self.word()?;
        if len == -1 {
            return Ok(None);
        }
        let left = self.words.len() - self.at;
        match usize::try_from(len) {
            Ok(len) if len <= left => {
                let items = &self.words[self.at..self.at + len];
                self.at += len;
                Ok(Some(items))
            }
            _ => self.fail("a list longer than the code or of negative length"),
        }
    }

    fn row(&mut self) -> Result<Ev<'a>, CodeError> {
        let k = self.word()?;
        Ok(match k {
            kind::NOOP => Ev::Noop,
            kind::GAME_START => Ev::GameStart {
                players: self.word()?,
                size: Size {
                    tiles: self.word()?,
                    dead_wall: self.word()?,
                    hand: self.word()?,
                },
                red_fives: self.flag()?,
                lost: self.flag()?,
                first_dealer: self.word()?,
            },
            kind::ROUND_START => self.round_start()?,
            kind::DRAW => Ev::Draw {
                player: self.word()?,
                tile: self.word()?,
                rinshan: self.flag()?,
            },
            kind::DISCARD => Ev::Discard {
                player: self.word()?,
                tile: self.word()?,
                riichi: self.flag()?,
            },
            kind::CHI | kind::PON | kind::OPEN_KAN => Ev::Call {
                kind: match k {
                    kind::CHI => CallKind::Chi,
                    kind::PON => CallKind::Pon,
                    _ => CallKind::OpenKan,
                },
                player: self.word()?,
                from: self.word()?,
                called: self.word()?,
                tiles: self.list()?,
            },
            kind::ADDED_KAN => Ev::AddedKan {
                player: self.word()?,
                from: self.word()?,
                called: self.word()?,
                added: self.word()?,
                tiles: self.list()?,
            },
            kind::CLOSED_KAN => Ev::ClosedKan {
                player: self.word()?,
                tiles: self.list()?,
            },
            kind::KITA => Ev::Kita {
                player: self.word()?,
                tile: self.word()?,
            },
            kind::FLOWER => Ev::Flower {
                player: self.word()?,
                tile: self.word()?,
                from: if self.flag()? {
                    Some(self.word()?)
                } else {
                    None
                },
            },
            kind::RIICHI => Ev::Riichi {
                player: self.word()?,
                scores: self.opt_list()?,
            },
            kind::READY => Ev::Ready {
                player: self.word()?,
            },
            kind::DORA => Ev::Dora { tile: self.word()? },
            kind::WIN => Ev::Win {
                winner: self.word()?,
                from: self.word()?,
                win_tile: self.word()?,
                hand: self.list()?,
                dora: self.list()?,
                ura: self.list()?,
                deltas: self.list()?,
                before: self.opt_list()?,
                claims: Claims {
                    yaku: self.list()?,
                    fu: self.word()?,
                    han: self.word()?,
                    points: self.word()?,
                    limit: self.word()?,
                    pao: self.word()?,
                },
            },
            kind::EXHAUSTIVE | kind::ABORTIVE => Ev::DrawResult {
                abortive: k == kind::ABORTIVE,
                hands: self.word()?,
                shown: self.word()?,
                kind: if k == kind::ABORTIVE {
                    self.word()?
                } else {
                    -1
                },
                deltas: self.list()?,
                before: self.opt_list()?,
                nagashi: k == kind::EXHAUSTIVE && self.flag()?,
            },
            kind::CHOMBO => Ev::Chombo {
                player: self.word()?,
            },
            kind::ROUND_END => Ev::RoundEnd {
                scores: self.opt_list()?,
            },
            kind::GAME_END => Ev::GameEnd {
                scores: self.opt_list()?,
                points: self.word()?,
            },
            kind::DISCONNECT | kind::RECONNECT => Ev::Seat {
                reconnect: k == kind::RECONNECT,
                player: self.word()?,
            },
            _ => {
                self.at -= 1;
                return self.fail("no row kind has this number");
            }
        })
    }

    fn round_start(&mut self) -> Result<Ev<'a>, CodeError> {
        let (wind, number, honba, kyotaku) =
            (self.word()?, self.word()?, self.word()?, self.word()?);
        let (dealer, dora, results_only) = (self.word()?, self.word()?, self.flag()?);
        let scores = self.list()?;
        let count = self.word()?;
        if !(0..=64).contains(&count) {
            return self.fail("a round start deals 0 to 64 hands");
        }
        let mut hands = Vec::with_capacity(count as usize);
        for _ in 0..count {
            hands.push(self.list()?);
        }
        Ok(Ev::RoundStart {
            wind,
            number,
            honba,
            kyotaku,
            dealer,
            dora,
            results_only,
            scores,
            hands,
        })
    }
}

/// Every row of a code, in order; an error at the first word that does not fit the
/// layout (nothing after it is read).
pub fn decode(words: &[i64]) -> Result<Vec<Ev<'_>>, CodeError> {
    let mut reader = Reader { words, at: 0 };
    let mut out = Vec::with_capacity(words.len() / 3);
    while reader.at < words.len() {
        out.push(reader.row()?);
    }
    Ok(out)
}

/// The tiles a table of `size` (or, without one, the riichi table of `seats`) holds, by
/// id, the unknown tile's slot too (twin of `mjlog.replay.state.tiles_here`).
pub fn tiles_here(size: Option<Size>, seats: usize) -> [bool; SLOTS] {
    let tiles = size.map_or(if seats == 3 { 108 } else { 136 }, |s| s.tiles);
    let top = if tiles <= FIRST_FLOWER as i64 {
        FIRST_FLOWER
    } else {
        UNKNOWN
    };
    let mut here = [false; SLOTS];
    here[..top].fill(true);
    here[UNKNOWN] = true;
    if tiles == 108 {
        here[4..32].fill(false);
    }
    here
}

/// A tile's kind (0..41), 255 for the unknown tile (`mjlog.tiles.KIND_OF`).
pub fn kind_of(tile: usize) -> u8 {
    match tile {
        0..FIRST_FLOWER => (tile >> 2) as u8,
        FIRST_FLOWER..UNKNOWN => (tile - FIRST_FLOWER + 34) as u8,
        _ => 255,
    }
}

fn is_red_id(tile: usize) -> bool {
    RED_FIVES.contains(&tile)
}

/// One tile in mpsz as two characters (digit, suit), `None` for the unknown tile.
fn tile_parts(tile: usize, red_fives: bool) -> Option<(char, char)> {
    if tile >= UNKNOWN {
        return None;
    }
    let k = kind_of(tile);
    let (digit, suit) = match k {
        0..=26 => (k % 9 + 1, ['m', 'p', 's'][usize::from(k / 9)]),
        27..=33 => (k - 26, 'z'),
        _ => (k - 33, 'f'),
    };
    let digit = if red_fives && is_red_id(tile) {
        0
    } else {
        digit
    };
    Some((char::from(b'0' + digit), suit))
}

/// One tile in mpsz (twin of `mjlog.tiles.tile_str`): `0m` for a red five in a game with
/// them, `?` for the unknown tile.
pub fn tile_str(tile: usize, red_fives: bool) -> String {
    match tile_parts(tile, red_fives) {
        Some((d, s)) => format!("{d}{s}"),
        None => "?".to_string(),
    }
}

/// Tiles in compact mpsz, sorted by kind, a red five before its fives (twin of
/// `mjlog.tiles.tiles_str` with `sort`).
pub fn tiles_str(tiles: impl IntoIterator<Item = usize>, red_fives: bool) -> String {
    let mut items: Vec<usize> = tiles.into_iter().collect();
    items.sort_by_key(|&t| (kind_of(t), !is_red_id(t)));
    let mut out = String::new();
    let mut suit: Option<char> = None;
    for t in items {
        match tile_parts(t, red_fives) {
            None => {
                if let Some(s) = suit.take() {
                    out.push(s);
                }
                out.push('?');
            }
            Some((d, s)) => {
                if let Some(prev) = suit {
                    if prev != s {
                        out.push(prev);
                    }
                }
                out.push(d);
                suit = Some(s);
            }
        }
    }
    if let Some(s) = suit {
        out.push(s);
    }
    out
}

/// Numbers as a Python list writes them: `[25000, -1000]`.
pub fn list_text(values: &[i64]) -> String {
    let items: Vec<String> = values.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_text_follows_mpsz() {
        assert_eq!(tile_str(16, true), "0m");
        assert_eq!(tile_str(16, false), "5m");
        assert_eq!(tile_str(135, true), "7z");
        assert_eq!(tile_str(UNKNOWN, true), "?");
        assert_eq!(tiles_str([20, 16, 0, 108, UNKNOWN, 52], true), "106m0p1z?");
        assert_eq!(tiles_str([UNKNOWN, 0], false), "1m?");
        assert_eq!(list_text(&[]), "[]");
        assert_eq!(list_text(&[1, -2]), "[1, -2]");
    }

    #[test]
    fn three_player_tables_hold_no_middle_manzu() {
        let here = tiles_here(None, 3);
        assert!(here[0] && here[3] && !here[4] && !here[31] && here[32]);
        assert!(!here[136] && here[UNKNOWN]);
        let big = tiles_here(
            Some(Size {
                tiles: 144,
                dead_wall: 16,
                hand: 16,
            }),
            4,
        );
        assert!(big[143] && big[4]);
    }

    #[test]
    fn a_short_code_is_an_error_with_its_place() {
        assert_eq!(
            decode(&[kind::DRAW, 0]).unwrap_err(),
            CodeError {
                word: 2,
                reason: "the code ends inside a row"
            }
        );
        assert_eq!(decode(&[99]).unwrap_err().word, 0);
        assert!(decode(&[kind::CLOSED_KAN, 0, i64::MAX]).is_err());
        assert!(decode(&[kind::RIICHI, 0, -1]).is_ok());
    }
}
