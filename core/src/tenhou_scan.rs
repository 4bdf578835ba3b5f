//! Tenhou XML scanned for the Python reader (`mjlog.formats.tenhou_xml.read`): each draw
//! and discard as a code of the event the Python reader would make of it, every other
//! element handed over with its attributes for the Python reader's own handlers.
//!
//! Nine elements in ten are draws and discards; this is what the Python reader spends
//! most of its time on. The code of a move is its index in the Python reader's shared
//! events, `DRAWS + DISCARDS` of `mjlog.events`: a draw `(rinshan * 4 + seat) * 136 +
//! tile`, a discard `1088 + ((riichi * 2 + tsumogiri) * 4 + seat) * 136 + tile`, where
//! rinshan (after a kan or kita), tsumogiri (the tile just drawn) and riichi (after a
//! `REACH step=1`) follow the Python reader's rules. A record outside the subset of
//! `tenhou_xml` (and one that does not reach its game end) is declined.

use quick_xml::events::BytesStart;

use crate::tenhou_xml::{
    attributes, decline, get, meld, move_tag, one_int, walk, Attrs, Declined, RoundingOwari,
    NUM_TILES,
};

/// The codes of `DRAWS` come first, then those of `DISCARDS`.
const DISCARD_BASE: i64 = 2 * 4 * NUM_TILES;

/// A record scanned: one code per element of the root, in order (a move's event, or
/// `-(i + 1)` for the `i`-th of `others`), the other elements (where they are, tag,
/// attributes), the line each element starts on, and the `owari` the final points'
/// rounding is read from.
#[derive(Debug, Default)]
pub struct Scan {
    pub codes: Vec<i64>,
    pub others: Vec<(usize, String, Attrs)>,
    pub lines: Vec<u32>,
    pub rounding_owari: Option<String>,
}

#[derive(Default)]
struct State {
    out: Scan,
    players: usize,
    in_round: bool,
    ended: bool,
    last_draw: [i64; 4],
    rinshan_next: [bool; 4],
    riichi_pending: [bool; 4],
    rounding: RoundingOwari,
}

/// Scan a record's text (gzip undone, no DOCTYPE), or decline.
pub fn scan(text: &[u8]) -> Result<Scan, Declined> {
    let mut state = State {
        players: 4,
        last_draw: [-1; 4],
        ..State::default()
    };
    walk(text, |el, line| state.element(el, line))?;
    if !state.ended {
        return decline("the record stops before its game end");
    }
    state.out.rounding_owari = state.rounding.owari();
    Ok(state.out)
}

impl State {
    fn element(&mut self, el: &BytesStart<'_>, line: usize) -> Result<(), Declined> {
        self.out
            .lines
            .push(u32::try_from(line).map_err(|_| "too many lines")?);
        let name = el.name();
        let tag: &str = name.as_ref();
        if let Some((k, tile)) = move_tag(tag) {
            self.rounding.element(None);
            if el.attributes().next().is_some() {
                return decline(format!("a move <{tag}> with attributes"));
            }
            let code = self.mv(k, tile)?;
            self.out.codes.push(code);
            return Ok(());
        }
        let attrs = attributes(el)?;
        self.rounding.element(get(&attrs, "owari"));
        let at = self.out.codes.len();
        if self.ended && !matches!(tag, "BYE" | "UN") {
            return decline("an element after the game's end");
        }
        match tag {
            "SHUFFLE" | "UN" | "TAIKYOKU" | "BYE" | "DORA" => {}
            "GO" => {
                if one_int(get(&attrs, "type"))? & 0x10 != 0 {
                    self.players = 3;
                }
            }
            "INIT" => {
                self.in_round = true;
                self.last_draw = [-1; 4];
                self.rinshan_next = [false; 4];
                self.riichi_pending = [false; 4];
            }
            "N" => {
                let who = self.who(get(&attrs, "who"))?;
                self.last_draw[who] = -1;
                if meld(one_int(get(&attrs, "m"))?)?.replaced() {
                    self.rinshan_next[who] = true;
                }
            }
            "REACH" => {
                let who = self.who(get(&attrs, "who"))?;
                if one_int(get(&attrs, "step"))? == 1 {
                    self.riichi_pending[who] = true;
                }
            }
            "AGARI" | "RYUUKYOKU" => {
                if get(&attrs, "owari").is_some() {
                    self.ended = true;
                }
            }
            _ => return decline(format!("an element <{tag}> this reader does not read")),
        }
        let owned = attrs.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        self.out.others.push((at, tag.to_string(), owned.collect()));
        self.out.codes.push(-(self.out.others.len() as i64));
        Ok(())
    }

    fn who(&self, text: Option<&str>) -> Result<usize, Declined> {
        if !self.in_round || self.ended {
            return decline("not inside a round");
        }
        let who = one_int(text)?;
        if !(0..self.players as i64).contains(&who) {
            return decline("who is not a seat of this game");
        }
        Ok(who as usize)
    }

    /// The code of a draw (`k` 0..3: the seat) or a discard (`k` 4..7) of `t`.
    fn mv(&mut self, k: usize, t: i64) -> Result<i64, Declined> {
        let p = k % 4;
        if !self.in_round || self.ended || t >= NUM_TILES || p >= self.players {
            return decline("a move outside a round, or of no such tile or seat");
        }
        let seat = p as i64;
        if k < 4 {
            let rinshan = std::mem::replace(&mut self.rinshan_next[p], false);
            self.last_draw[p] = t;
            return Ok((i64::from(rinshan) * 4 + seat) * NUM_TILES + t);
        }
        let tsumogiri = std::mem::replace(&mut self.last_draw[p], -1) == t;
        let riichi = std::mem::replace(&mut self.riichi_pending[p], false);
        let flags = i64::from(riichi) * 2 + i64::from(tsumogiri);
        Ok(DISCARD_BASE + (flags * 4 + seat) * NUM_TILES + t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HANDS: &str = r#"hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" hai3="39,40,41,42,43,44,45,46,47,48,49,50,51""#;

    #[test]
    fn moves_get_the_codes_of_the_python_readers_events() {
        let text = format!(
            "<mjloggm ver=\"2.3\">\n<GO type=\"169\"/><INIT seed=\"0,0,0,1,2,60\" ten=\"250,250,250,250\" oya=\"0\" {HANDS}/>\n<T52/><REACH who=\"0\" step=\"1\"/><D52/><U53/><N who=\"1\" m=\"1\"/><V54/><RYUUKYOKU ba=\"0,0\" owari=\"250,0.0,250,0.0,250,0.0,250,0.0\"/></mjloggm>"
        );
        let scan = scan(text.as_bytes()).unwrap();
        let tsumogiri_riichi = DISCARD_BASE + (3 * 4) * NUM_TILES + 52;
        assert_eq!(scan.codes[2], 52); // seat 0 draws 52
        assert_eq!(scan.codes[4], tsumogiri_riichi);
        assert_eq!(scan.codes[5], NUM_TILES + 53); // seat 1 draws 53
        assert_eq!(scan.codes[7], 2 * NUM_TILES + 54); // after a kan: no rinshan for seat 2
        assert_eq!(scan.codes[1], -2); // INIT, the second element handed over
        assert_eq!(scan.lines, vec![2, 2, 3, 3, 3, 3, 3, 3, 3]);
        assert_eq!(
            scan.rounding_owari.as_deref(),
            Some("250,0.0,250,0.0,250,0.0,250,0.0")
        );
    }

    #[test]
    fn a_record_cut_short_or_odd_is_declined() {
        assert!(scan(b"<mjloggm><GO type=\"169\"/></mjloggm>").is_err());
        assert!(scan(b"<mjloggm><D1/></mjloggm>").is_err());
        assert!(scan("<mjloggm><東/></mjloggm>".as_bytes()).is_err());
    }
}
