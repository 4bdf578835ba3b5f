//! Statistics' fact rows straight from a Tenhou mjlog XML game: the twin of
//! `mjlog.formats.tenhou_xml.read` followed by `mjlog.stats.facts.add_game`.
//!
//! It reads only records the Python reader reads without a single diagnostic, and of
//! those only what it can reproduce exactly: anything else (a DTD, a comment, an unknown
//! element, an entity, a value the Python reader would parse leniently or refuse, a
//! record that stops early …) is *declined* with the reason, and the caller takes the
//! Python route for that file. Declining is always correct; accepting is correct only
//! where the rows are the Python route's, which the differential tests check over the
//! corpus and over mutated records.
//!
//! The game's header (players, rules, metadata) goes back to Python as the elements'
//! attributes, so that the Python reader's own code builds the game start; this module
//! builds the rounds, per-player rounds, wins and yaku rows.

use quick_xml::events::BytesStart;

use crate::tenhou_xml::{
    attributes, decline, get, int, ints, meld, move_tag, one_int, tiles, walk, Attrs, Borrowed,
    Declined, Meld, RoundingOwari, COUNT_LIMIT, NUM_TILES,
};

/// A cell of a fact row. `Game` and `Name` are filled in by the caller (the game's number
/// in its batch, a seat's player name).
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Null,
    Bool(bool),
    Int(i64),
    Text(String),
    Game,
    Name(usize),
}

/// Names the Python route uses, handed over once: yaku by Tenhou id, limits by code,
/// abortive draws by `RYUUKYOKU type`.
#[derive(Debug, Clone)]
pub struct Names {
    pub yaku: Vec<String>,
    pub limits: Vec<String>,
    pub abortive: Vec<(String, String)>,
}

/// One game read: its header elements, what the game start needs of its first round and
/// its end, and the fact rows (flat, cell after cell, in the Python tables' column order).
#[derive(Debug, Default)]
pub struct GameFacts {
    /// `SHUFFLE`, `GO`, the first `UN` and `TAIKYOKU`, as (tag, attributes), in order.
    pub header: Vec<(String, Attrs)>,
    pub players: usize,
    pub first_scores: Vec<i64>,
    pub first_hands: Vec<Vec<u8>>,
    /// The `owari` the Python reader takes the rounding of the final points from (the
    /// first non-empty one among the last four elements), if any.
    pub rounding_owari: Option<String>,
    /// The game end's `owari`.
    pub owari: String,
    pub rounds: Vec<Cell>,
    pub player_rounds: Vec<Cell>,
    pub wins: Vec<Cell>,
    pub yaku: Vec<Cell>,
}

/// Columns of a `player_rounds` row, as the Python `_PR_COLUMNS` has them.
pub const PLAYER_ROUND_COLUMNS: [&str; 21] = [
    "_game",
    "player",
    "round",
    "seat",
    "dealer",
    "won",
    "deal_ins",
    "deal_in_points",
    "riichi_accepted",
    "riichi_own_turn",
    "riichi_order",
    "riichi_chased",
    "calls",
    "exhaustive_draw",
    "nagashi",
    "abortive_draw",
    "tenpai_at_draw",
    "score_change",
    "own_turn_at_end",
    "tsumo_hit",
    "dealer_streak",
];
const WIDTH: usize = PLAYER_ROUND_COLUMNS.len();
const ROUND: usize = 2;
const DEALER: usize = 4;
const WON: usize = 5;
const DEAL_INS: usize = 6;
const DEAL_IN_POINTS: usize = 7;
const ACCEPTED: usize = 8;
const RIICHI_TURN: usize = 9;
const ORDER: usize = 10;
const CHASED: usize = 11;
const CALLS: usize = 12;
const EXHAUSTIVE: usize = 13;
const NAGASHI: usize = 14;
const ABORTIVE: usize = 15;
const TENPAI: usize = 16;
const CHANGE: usize = 17;
const END_TURN: usize = 18;
const TSUMO_HIT: usize = 19;
const STREAK: usize = 20;

/// Read one game's fact rows from the XML text (gzip already undone), or decline.
pub fn read(text: &[u8], names: &Names) -> Result<GameFacts, Declined> {
    let mut game = Game::new(names);
    walk(text, |el, _line| game.element(el))?;
    game.finish()
}

/// One round's per-player counters (`_Rounds` of the Python facts).
struct Round {
    row: usize, // where its rows start in `player_rounds`
    dealer: usize,
    honba: i64,
    kyotaku: i64,
    label: String,
    disc: Vec<i64>,
    declared: i64,
    result: String,
    wins: i64,
}

struct Game<'n> {
    names: &'n Names,
    out: GameFacts,
    go_seen: bool,
    un_seen: bool,
    started: bool,
    round: Option<Round>,
    round_result: bool,
    riichi_pending: Vec<bool>,
    index: i64,
    last_dealer: i64,
    streak: i64,
    ended: bool,
    rounding: RoundingOwari,
}

impl<'n> Game<'n> {
    fn new(names: &'n Names) -> Self {
        Game {
            names,
            out: GameFacts {
                players: 4,
                ..GameFacts::default()
            },
            go_seen: false,
            un_seen: false,
            started: false,
            round: None,
            round_result: false,
            riichi_pending: vec![false; 4],
            index: -1,
            last_dealer: -1,
            streak: 0,
            ended: false,
            rounding: RoundingOwari::default(),
        }
    }

    fn n(&self) -> usize {
        self.out.players
    }

    fn element(&mut self, el: &BytesStart<'_>) -> Result<(), Declined> {
        let name = el.name();
        let tag: &str = name.as_ref();
        if let Some((k, tile)) = move_tag(tag) {
            // nine elements in ten: a draw or a discard, with no attribute
            self.rounding.element(None);
            if el.attributes().next().is_some() {
                return decline(format!("a move <{tag}> with attributes"));
            }
            return self.mv(k, tile);
        }
        let attrs = attributes(el)?;
        self.rounding.element(get(&attrs, "owari"));
        if self.ended && !matches!(tag, "BYE" | "UN") {
            return decline("an element after the game's end");
        }
        match tag {
            "SHUFFLE" | "GO" | "TAIKYOKU" => self.header(tag, attrs),
            "UN" if !self.un_seen => {
                self.un_seen = true;
                self.header(tag, attrs)
            }
            "UN" => Ok(()), // a reconnection: nothing statistics count
            "BYE" => self.who(get(&attrs, "who")).map(|_| ()),
            "INIT" => self.init(&attrs),
            "N" => self.meld(&attrs),
            "REACH" => self.reach(&attrs),
            "DORA" => {
                self.in_round()?;
                if tiles(get(&attrs, "hai"))?.len() != 1 {
                    return decline("DORA hai is not one tile");
                }
                Ok(())
            }
            "AGARI" => self.agari(&attrs),
            "RYUUKYOKU" => self.ryuukyoku(&attrs),
            _ => decline(format!("an element <{tag}> this reader does not read")),
        }
    }

    fn header(&mut self, tag: &str, attrs: Borrowed<'_>) -> Result<(), Declined> {
        if self.started || self.out.header.iter().any(|(t, _)| *t == tag) {
            return decline(format!("<{tag}> after the game started or twice"));
        }
        match tag {
            "GO" => {
                let go = one_int(get(&attrs, "type"))?;
                if self.un_seen {
                    return decline("<UN> before <GO>");
                }
                self.go_seen = true;
                if go & 0x10 != 0 {
                    self.out.players = 3;
                }
            }
            "TAIKYOKU" => {
                one_int(Some(get(&attrs, "oya").unwrap_or("0")))?;
            }
            "UN" if !self.go_seen => return decline("<UN> before <GO>"),
            _ => {}
        }
        let owned = attrs.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        self.out.header.push((tag.to_string(), owned.collect()));
        Ok(())
    }

    fn in_round(&self) -> Result<(), Declined> {
        if self.round.is_none() || self.ended {
            return decline("not inside a round");
        }
        Ok(())
    }

    fn who(&self, text: Option<&str>) -> Result<usize, Declined> {
        let who = one_int(text)?;
        if !(0..self.n() as i64).contains(&who) {
            return decline("who is not a seat of this game");
        }
        Ok(who as usize)
    }

    /// A draw (`k` 0..3: seat) or a discard (`k` 4..7: seat + 4) of `tile`.
    fn mv(&mut self, k: usize, tile: i64) -> Result<(), Declined> {
        self.in_round()?;
        let (p, t) = (k % 4, tile);
        if t >= NUM_TILES || p >= self.n() {
            return decline("no such tile or seat");
        }
        if k < 4 {
            return Ok(()); // a draw: nothing statistics count
        }
        let riichi = std::mem::replace(&mut self.riichi_pending[p], false);
        let n = self.n();
        let round = self.round.as_mut().expect("in a round");
        round.disc[p] += 1;
        if riichi {
            declare(&mut self.out.player_rounds, round, p, n);
        }
        Ok(())
    }

    fn init(&mut self, a: &Borrowed<'_>) -> Result<(), Declined> {
        if self.ended {
            return decline("a round after the game's end");
        }
        let seed = ints(get(a, "seed"))?;
        if seed.len() != 6 {
            return decline("INIT seed does not have six values");
        }
        let n = self.n();
        let ten = ints(get(a, "ten"))?;
        let mut hands = Vec::with_capacity(n);
        for i in 0..n {
            let text = get(a, ["hai0", "hai1", "hai2", "hai3"][i]);
            if text.is_none_or(|t| t.matches(',').count() != 12) {
                return decline("a dealt hand is missing or not 13 tiles");
            }
            let mut hand = tiles(text)?;
            hand.sort_unstable();
            hands.push(hand);
        }
        let dealer = one_int(get(a, "oya"))?;
        if ten.len() < n || !(0..NUM_TILES).contains(&seed[5]) || !(0..n as i64).contains(&dealer) {
            return decline("scores, hands or dora indicator do not fit the table");
        }
        if seed[..3].iter().any(|v| *v < 0) || seed[1..3].iter().any(|v| *v > COUNT_LIMIT) {
            return decline("a round, honba or stick count past its range");
        }
        if self.round.is_some() && !self.round_result {
            return decline("a round without a result");
        }
        if !self.go_seen {
            return decline("no <GO> before the first round");
        }
        if !self.started {
            self.started = true;
            self.out.first_scores = ten[..n].iter().map(|s| s * 100).collect();
            self.out.first_hands = hands;
        }
        self.round_start(dealer as usize, &seed);
        self.round_result = false;
        self.riichi_pending = vec![false; 4];
        Ok(())
    }

    fn round_start(&mut self, dealer: usize, seed: &[i64]) {
        self.flush();
        self.index += 1;
        self.streak = if dealer as i64 == self.last_dealer {
            self.streak + 1
        } else {
            0
        };
        self.last_dealer = dealer as i64;
        let n = self.n();
        let row = self.out.player_rounds.len();
        for p in 0..n {
            let mut cells = vec![Cell::Null; WIDTH];
            cells[0] = Cell::Game;
            cells[1] = Cell::Name(p);
            cells[ROUND] = Cell::Int(self.index);
            cells[3] = Cell::Int(p as i64);
            cells[DEALER] = Cell::Bool(p == dealer);
            for c in [WON, ACCEPTED, EXHAUSTIVE, NAGASHI, ABORTIVE, TSUMO_HIT] {
                cells[c] = Cell::Bool(false);
            }
            for c in [DEAL_INS, DEAL_IN_POINTS, CALLS, CHANGE] {
                cells[c] = Cell::Int(0);
            }
            if p == dealer {
                cells[STREAK] = Cell::Int(self.streak);
            }
            self.out.player_rounds.extend(cells);
        }
        let (wind, number) = (seed[0] / 4, seed[0] % 4 + 1);
        let letter = ["E", "S", "W", "N"][(wind % 4) as usize];
        self.round = Some(Round {
            row,
            dealer,
            honba: seed[1],
            kyotaku: seed[2],
            label: format!("{letter}{number}-{}", seed[1]),
            disc: vec![0; n],
            declared: 0,
            result: String::new(),
            wins: 0,
        });
    }

    /// The finished round's `rounds` row.
    fn flush(&mut self) {
        if let Some(r) = self.round.take() {
            self.out.rounds.extend([
                Cell::Game,
                Cell::Name(r.dealer),
                Cell::Int(self.index),
                Cell::Text(r.label),
                Cell::Int(r.dealer as i64),
                Cell::Int(r.honba),
                Cell::Int(r.kyotaku),
                if r.result.is_empty() {
                    Cell::Null
                } else {
                    Cell::Text(r.result)
                },
                Cell::Int(r.wins),
            ]);
        }
    }

    fn meld(&mut self, a: &Borrowed<'_>) -> Result<(), Declined> {
        self.in_round()?;
        let who = self.who(get(a, "who"))?;
        let kind = meld(one_int(get(a, "m"))?)?;
        let round = self.round.as_ref().expect("in a round");
        if matches!(kind, Meld::Chi | Meld::Pon | Meld::OpenKan) {
            add(
                &mut self.out.player_rounds,
                round.row + who * WIDTH + CALLS,
                1,
            );
        }
        Ok(())
    }

    fn reach(&mut self, a: &Borrowed<'_>) -> Result<(), Declined> {
        self.in_round()?;
        let who = self.who(get(a, "who"))?;
        match one_int(get(a, "step"))? {
            1 => self.riichi_pending[who] = true,
            2 => {
                ints(Some(get(a, "ten").unwrap_or("")))?;
                let at = self.round.as_ref().expect("in a round").row + who * WIDTH;
                self.out.player_rounds[at + ACCEPTED] = Cell::Bool(true);
                add(&mut self.out.player_rounds, at + CHANGE, -1000);
            }
            _ => return decline("REACH step is neither 1 nor 2"),
        }
        Ok(())
    }

    /// `sc`: the scores before and the deltas, in points.
    fn score_pairs(&self, text: Option<&str>) -> Result<Vec<i64>, Declined> {
        let sc = ints(text)?;
        if sc.len() < 2 * self.n() {
            return decline("sc has too few values");
        }
        Ok(sc[..2 * self.n()]
            .iter()
            .skip(1)
            .step_by(2)
            .map(|v| v * 100)
            .collect())
    }

    fn ba(text: Option<&str>) -> Result<(), Declined> {
        let ba = ints(Some(text.unwrap_or("0,0")))?;
        if ba.len() != 2 {
            return decline("ba does not have two values");
        }
        if ba.iter().any(|v| !(0..=COUNT_LIMIT).contains(v)) {
            return decline("honba or riichi sticks past their range");
        }
        Ok(())
    }

    fn agari(&mut self, a: &Borrowed<'_>) -> Result<(), Declined> {
        self.in_round()?;
        let n = self.n();
        let w = self.who(get(a, "who"))?;
        let f = one_int(get(a, "fromWho"))?;
        if !(0..n as i64).contains(&f) {
            return decline("fromWho is not a seat of this game");
        }
        let f = f as usize;
        Self::ba(get(a, "ba"))?;
        let ten = ints(get(a, "ten"))?;
        if ten.len() != 3 || !(0..self.names.limits.len() as i64).contains(&ten[2]) {
            return decline("AGARI ten is not fu, points and a limit code");
        }
        let yaku = self.yaku(
            get(a, "yaku").unwrap_or(""),
            get(a, "yakuman").unwrap_or(""),
        )?;
        let han: i64 = yaku.iter().map(|(_, h)| h).sum();
        if !(0..=COUNT_LIMIT).contains(&ten[0])
            || !(0..=COUNT_LIMIT).contains(&han)
            || yaku.iter().any(|(_, h)| !(0..=COUNT_LIMIT).contains(h))
        {
            return decline("fu or han past their range");
        }
        let melds = get(a, "m").unwrap_or("");
        if !melds.trim().is_empty() {
            for code in melds.split(',') {
                meld(int(code)?)?;
            }
        }
        for key in ["machi", "hai"] {
            tiles(get(a, key))?;
        }
        for key in ["doraHai", "doraHaiUra"] {
            tiles(Some(get(a, key).unwrap_or("")))?;
        }
        let deltas = self.score_pairs(get(a, "sc"))?;
        let pao = get(a, "paoWho").map(|p| one_int(Some(p))).transpose()?;
        let limit = self.names.limits[ten[2] as usize].clone();
        self.win(w, f, &ten, &limit, &yaku, &deltas, pao);
        self.round_result = true;
        self.owari(get(a, "owari"))
    }

    /// The claims of `yaku` (id, han pairs) and `yakuman` (ids, 13 han each).
    fn yaku(&self, yaku: &str, yakuman: &str) -> Result<Vec<(String, i64)>, Declined> {
        let pairs = ints(Some(yaku))?;
        if pairs.len() % 2 != 0 {
            return decline("yaku has an odd number of values");
        }
        let name = |id: i64| match usize::try_from(id)
            .ok()
            .and_then(|i| self.names.yaku.get(i))
        {
            Some(n) => Ok(n.clone()),
            None => decline(format!("an unknown yaku id {id}")),
        };
        let mut out = Vec::new();
        for pair in pairs.chunks_exact(2) {
            out.push((name(pair[0])?, pair[1]));
        }
        for id in ints(Some(yakuman))? {
            out.push((name(id)?, 13));
        }
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn win(
        &mut self,
        w: usize,
        f: usize,
        ten: &[i64],
        limit: &str,
        yaku: &[(String, i64)],
        deltas: &[i64],
        pao: Option<i64>,
    ) {
        let n = self.n();
        let index = self.index;
        let round = self.round.as_mut().expect("in a round");
        let cells = &mut self.out.player_rounds;
        round.wins += 1;
        round.result = "win".to_string();
        let at = |p: usize| round.row + p * WIDTH;
        let has = |name: &str| yaku.iter().any(|(y, _)| y == name);
        let riichi =
            cells[at(w) + RIICHI_TURN] != Cell::Null || has("riichi") || has("double-riichi");
        let closed = cells[at(w) + CALLS] == Cell::Int(0);
        let (mut dora, mut aka, mut ura) = (0, 0, 0);
        let mut yakuman = limit == "yakuman";
        for (name, han) in yaku {
            match name.as_str() {
                "dora" => dora += han,
                "aka-dora" => aka += han,
                "ura-dora" => ura += han,
                _ => self.out.yaku.extend([
                    Cell::Game,
                    Cell::Name(w),
                    Cell::Int(index),
                    Cell::Int(w as i64),
                    Cell::Text(name.clone()),
                    Cell::Int(*han),
                ]),
            }
            yakuman = yakuman || *han >= 13;
        }
        let names: Vec<&str> = yaku.iter().map(|(y, _)| y.as_str()).collect();
        self.out.wins.extend([
            Cell::Game,
            Cell::Name(w),
            Cell::Int(index),
            Cell::Int(w as i64),
            Cell::Int(f as i64),
            Cell::Bool(f == w),
            Cell::Int(yaku.iter().map(|(_, h)| h).sum()),
            Cell::Int(ten[0]),
            Cell::Int(ten[1]),
            if limit.is_empty() {
                Cell::Null
            } else {
                Cell::Text(limit.to_string())
            },
            Cell::Int(deltas[w]),
            Cell::Bool(riichi),
            Cell::Bool(closed),
            Cell::Bool(closed && !riichi),
            Cell::Bool(has("ippatsu")),
            Cell::Int(dora),
            Cell::Int(aka),
            Cell::Int(ura),
            Cell::Bool(yakuman),
            Cell::Text(names.join(",")),
            Cell::Int(round.disc[w]),
            pao.map_or(Cell::Null, Cell::Int),
        ]);
        cells[at(w) + WON] = Cell::Bool(true);
        cells[at(w) + END_TURN] = Cell::Int(round.disc[w]);
        if f != w {
            add(cells, at(f) + DEAL_INS, 1);
            add(cells, at(f) + DEAL_IN_POINTS, -deltas[f]);
            cells[at(f) + END_TURN] = Cell::Int(round.disc[f]);
        } else {
            for p in (0..n).filter(|p| *p != w) {
                cells[at(p) + TSUMO_HIT] = Cell::Bool(true);
            }
        }
        for (p, d) in deltas.iter().enumerate() {
            add(cells, at(p) + CHANGE, *d);
        }
    }

    fn ryuukyoku(&mut self, a: &Borrowed<'_>) -> Result<(), Declined> {
        self.in_round()?;
        let n = self.n();
        Self::ba(get(a, "ba"))?;
        let deltas = match get(a, "sc") {
            Some(sc) => self.score_pairs(Some(sc))?,
            None => vec![],
        };
        let mut shown = Vec::with_capacity(n);
        for key in &["hai0", "hai1", "hai2", "hai3"][..n] {
            let hand = get(a, key);
            tiles(Some(hand.unwrap_or("")))?;
            shown.push(hand.is_some());
        }
        let kind = get(a, "type");
        let result = match kind {
            None => "exhaustive".to_string(),
            Some("nm") => "nagashi".to_string(),
            Some(k) => match self.names.abortive.iter().find(|(t, _)| t == k) {
                Some((_, name)) => name.clone(),
                None => return decline(format!("an unknown draw type {k:?}")),
            },
        };
        let exhaustive = matches!(kind, None | Some("nm"));
        let round = self.round.as_mut().expect("in a round");
        let cells = &mut self.out.player_rounds;
        for (p, &tenpai) in shown.iter().enumerate() {
            let at = round.row + p * WIDTH;
            cells[at + EXHAUSTIVE] = Cell::Bool(exhaustive);
            cells[at + ABORTIVE] = Cell::Bool(!exhaustive);
            cells[at + NAGASHI] = Cell::Bool(kind == Some("nm"));
            if exhaustive {
                cells[at + TENPAI] = Cell::Bool(tenpai);
            }
        }
        for (p, d) in deltas.iter().enumerate() {
            add(cells, round.row + p * WIDTH + CHANGE, *d);
        }
        round.result = result;
        self.round_result = true;
        self.owari(get(a, "owari"))
    }

    fn owari(&mut self, owari: Option<&str>) -> Result<(), Declined> {
        let Some(owari) = owari else { return Ok(()) };
        let values: Vec<&str> = owari.split(',').collect();
        let plain_float = |v: &str| {
            let (whole, frac) = v.split_once('.').unwrap_or((v, "0"));
            int(whole).is_ok() && !frac.is_empty() && frac.bytes().all(|b| b.is_ascii_digit())
        };
        let ok = values.len() >= 2 * self.n()
            && values.iter().step_by(2).all(|v| int(v).is_ok())
            && values.iter().skip(1).step_by(2).all(|v| plain_float(v));
        if !ok {
            return decline("owari is empty, short or not plain numbers");
        }
        self.out.owari = owari.to_string();
        self.ended = true;
        Ok(())
    }

    fn finish(mut self) -> Result<GameFacts, Declined> {
        if !self.ended {
            return decline("the record stops before its game end");
        }
        self.flush();
        self.out.rounding_owari = self.rounding.owari();
        Ok(self.out)
    }
}

/// A riichi declaration: its own turn, its order, and whom it chases (`_Rounds.declare`).
fn declare(cells: &mut [Cell], round: &mut Round, p: usize, n: usize) {
    let at = round.row + p * WIDTH;
    if cells[at + RIICHI_TURN] != Cell::Null {
        return;
    }
    cells[at + RIICHI_TURN] = Cell::Int(round.disc[p]);
    round.declared += 1;
    cells[at + ORDER] = Cell::Int(round.declared);
    cells[at + CHASED] = Cell::Bool(false);
    for q in (0..n).filter(|q| *q != p) {
        let other = round.row + q * WIDTH;
        if cells[other + ORDER] != Cell::Null {
            cells[other + CHASED] = Cell::Bool(true);
        }
    }
}

fn add(cells: &mut [Cell], at: usize, by: i64) {
    if let Cell::Int(v) = cells[at] {
        cells[at] = Cell::Int(v + by);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        Names {
            yaku: ["menzen-tsumo", "riichi", "ippatsu"]
                .map(String::from)
                .to_vec(),
            limits: ["", "mangan", "haneman", "baiman", "sanbaiman", "yakuman"]
                .map(String::from)
                .to_vec(),
            abortive: vec![("yao9".into(), "nine-terminals".into())],
        }
    }

    const HANDS: &str = r#"hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" hai3="39,40,41,42,43,44,45,46,47,48,49,50,51""#;

    fn game(body: &str) -> String {
        format!(
            r#"<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="a" n1="b" n2="c" n3="d"/><TAIKYOKU oya="0"/><INIT seed="0,0,0,1,2,60" ten="250,250,250,250" oya="0" {HANDS}/>{body}</mjloggm>"#
        )
    }

    #[test]
    fn a_riichi_and_a_tsumo_give_their_rows() {
        let text = game(
            r#"<T52/><REACH who="0" step="1"/><D0/><REACH who="0" step="2" ten="240,250,250,250"/><U53/><E13/><AGARI ba="0,1" hai="1,2,3" machi="3" ten="30,3900,0" yaku="1,1,0,1" doraHai="60" who="0" fromWho="0" sc="240,40,250,-13,250,-13,250,-14" owari="280,38.0,237,-16.0,237,-36.0,236,14.0"/>"#,
        );
        let facts = read(text.as_bytes(), &names()).unwrap();
        assert_eq!(facts.players, 4);
        assert_eq!(facts.first_scores, vec![25000; 4]);
        let seat0 = &facts.player_rounds[..WIDTH];
        assert_eq!(seat0[RIICHI_TURN], Cell::Int(1));
        assert_eq!(seat0[ACCEPTED], Cell::Bool(true));
        assert_eq!(seat0[CHANGE], Cell::Int(4000 - 1000));
        assert_eq!(facts.player_rounds[WIDTH + TSUMO_HIT], Cell::Bool(true));
        assert_eq!(facts.wins[6], Cell::Int(2)); // han: riichi and tsumo
        assert_eq!(facts.rounds[7], Cell::Text("win".into()));
        assert_eq!(
            facts.rounding_owari.as_deref(),
            Some("280,38.0,237,-16.0,237,-36.0,236,14.0")
        );
    }

    #[test]
    fn what_the_python_reader_reads_otherwise_is_declined() {
        for body in [
            "<D0/>",                                                 // no game end
            "<T52/><!-- x --><D52/>",                                // a comment
            r#"<FOO/>"#,                                             // an unknown element
            r#"<T052/><RYUUKYOKU ba="0,0" owari=""/>"#,              // an empty owari
            r#"<T52/><RYUUKYOKU ba="0,0" sc="1,2" owari="1,1.0"/>"#, // too few sc values
            r#"<N who="0" m="&amp;"/>"#,                             // an entity
        ] {
            assert!(read(game(body).as_bytes(), &names()).is_err(), "{body}");
        }
        assert!(read(b"<mjloggm><GO type=\"1\"/>", &names()).is_err());
        assert!(read(b"\xff\xfe", &names()).is_err());
    }
}
