//! Kanzen sakizuke (完全先付け; twin of `mjlog.families.riichi.rules.sakizuke`): S1, an open
//! hand's first call carries a yaku of the winning hand (or a yaku is complete in its
//! concealed part); S2, no one-sided win (片和了り, 王手飛車 by option); and incidental yaku
//! alone make no win. The yaku of a win are the native valuation's
//! (`crate::scoring::yaku_readings`, twin of `fast.yaku_readings`); where Python would ask
//! the `mahjong` library (whether a hand is a yakuman, which fast.py declines), the check
//! makes the native audit decline the game (`Ctx::decline`) rather than guess.

use crate::engine::Observer;
use crate::engine_code::Ev;
use crate::scoring::situation::Situations;
use crate::scoring::{value, yaku_readings, MeldKind, Rules, Situation, YakuReading, NUM_TILES};

use super::win::rules_of;
use super::{counts_of, join_mpsz, kind_str, kinds_of_mask, kinds_text, waits, Check, Ctx, STILL};

/// A set of a reading: (first kind, run, concealed, kan).
type Set = (u8, bool, bool, bool);
/// What a win breaks: (code, message, evidence).
type Judgement = (&'static str, String, Vec<(&'static str, String)>);
/// The game is declined: only the `mahjong` library could answer (the reason).
type Declined = String;

/// Yaku that satisfy neither rule (`INCIDENTAL`).
const INCIDENTAL: [&str; 5] = ["haitei", "houtei", "rinshan-kaihou", "chankan", "ippatsu"];
/// Value-tile yaku and their kinds (`VALUE_KIND`).
const VALUE_KIND: [(&str, u8); 11] = [
    ("haku", 31),
    ("hatsu", 32),
    ("chun", 33),
    ("seat-wind-east", 27),
    ("seat-wind-south", 28),
    ("seat-wind-west", 29),
    ("seat-wind-north", 30),
    ("round-wind-east", 27),
    ("round-wind-south", 28),
    ("round-wind-west", 29),
    ("round-wind-north", 30),
];
const WHOLE_HAND: [&str; 3] = ["toitoi", "honroutou", "tanyao"];
const FLUSH: [&str; 4] = ["honitsu", "chinitsu", "chanta", "junchan"];
const DRAGONS: [u8; 3] = [31, 32, 33];

fn value_kind(name: &str) -> Option<u8> {
    VALUE_KIND.iter().find(|(n, _)| *n == name).map(|&(_, k)| k)
}

/// The sakizuke variant switches (`SakizukeOptions`, named `sakizuke_*` in the options).
#[derive(Clone, Debug)]
pub struct SakizukeOptions {
    pub flush: bool,
    pub concealed: bool,
    pub all_calls: bool,
    pub value_first: bool,
    pub incidental: bool,
    pub tanyao: bool,
    pub menzen_tsumo: String,
    pub ron_only: bool,
    pub oute_bisha: bool,
    pub oute_bisha_yakuhai: bool,
}

impl Default for SakizukeOptions {
    fn default() -> Self {
        SakizukeOptions {
            flush: true,
            concealed: true,
            all_calls: false,
            value_first: false,
            incidental: false,
            tanyao: true,
            menzen_tsumo: "counts".into(),
            ron_only: false,
            oute_bisha: true,
            oute_bisha_yakuhai: true,
        }
    }
}

/// The sakizuke check (module docs): the situations of the round's wins, kept by the
/// native situation observer it drives, and the round's indicators as written.
#[derive(Default)]
pub struct Sakizuke {
    situations: Situations,
    dora: Vec<i64>,
}

/// One judgement's frame: the situation, the valuation rules and the switches.
struct Judge<'a> {
    sit: &'a Situation,
    rules: Rules,
    o: &'a SakizukeOptions,
}

/// Whether Python's `riichi.value` asks the library about `sit`: its own refusals pass
/// (indicators were checked by the caller) and fast.py declines.
fn asks_library(sit: &Situation, rules: &Rules) -> bool {
    let n = NUM_TILES;
    if sit.hand.len() + 3 * sit.melds.len() < 14
        || sit.hand.iter().any(|&t| t >= n)
        || sit.melds.iter().any(|m| m.tiles.iter().any(|&t| t >= n))
    {
        return false;
    }
    value(sit, rules).is_none()
}

fn set_text(s: Set) -> String {
    let (first, run, _, kan) = s;
    let kinds: Vec<u8> = if run {
        vec![first, first + 1, first + 2]
    } else {
        vec![first; if kan { 4 } else { 3 }]
    };
    join_mpsz(kinds.into_iter().map(|k| kind_str(usize::from(k))))
}

fn reading_text(r: &YakuReading) -> String {
    let mut parts: Vec<String> = r.sets.iter().map(|&s| set_text(s)).collect();
    if let Ok(pair) = usize::try_from(r.pair) {
        parts.push(join_mpsz([kind_str(pair), kind_str(pair)]));
    }
    let mut text = parts.join(" ");
    if !r.yaku.is_empty() {
        text.push_str(": ");
        text.push_str(&r.yaku.join(", "));
    }
    text
}

fn readings_text(rs: &[YakuReading]) -> String {
    if rs.is_empty() {
        return "none".into();
    }
    rs.iter().map(reading_text).collect::<Vec<_>>().join("; ")
}

impl Judge<'_> {
    fn incidental(&self, extra_tsumo: bool) -> Vec<&'static str> {
        let mut out = INCIDENTAL.to_vec();
        if self.o.menzen_tsumo == "not-alone" || extra_tsumo {
            out.push("menzen-tsumo");
        }
        out
    }

    fn closed(sit: &Situation) -> bool {
        sit.melds.iter().all(|m| m.kind == MeldKind::ClosedKan)
    }

    /// The reading's yaku that can settle a hand (`_qualifying`), sorted and unique.
    fn qualifying(
        &self,
        r: &YakuReading,
        sit: &Situation,
        incidental: &[&str],
    ) -> Vec<&'static str> {
        let mut q: Vec<&'static str> = r
            .yaku
            .iter()
            .copied()
            .filter(|y| !incidental.contains(y))
            .collect();
        if !self.o.tanyao && !Self::closed(sit) {
            q.retain(|&y| y != "tanyao");
        }
        q.sort_unstable();
        q.dedup();
        q
    }

    fn is_call(&self, r: &YakuReading, i: usize) -> bool {
        i >= r.concealed_sets
            && self
                .sit
                .melds
                .get(i - r.concealed_sets)
                .is_some_and(|m| m.kind != MeldKind::ClosedKan)
    }

    /// Indices of the sets that make up yaku `name` in `r`, each way it forms (`_groups`).
    fn groups(name: &str, r: &YakuReading) -> Vec<Vec<usize>> {
        let sets = &r.sets;
        if let Some(kind) = value_kind(name) {
            return (0..sets.len())
                .filter(|&i| sets[i].0 == kind && !sets[i].1)
                .map(|i| vec![i])
                .collect();
        }
        match name {
            "sanshoku" | "ittsu" | "sanshoku-doukou" => {
                let run = name != "sanshoku-doukou";
                let step: u16 = if name == "ittsu" { 3 } else { 9 };
                let find = |kind: u16| {
                    sets.iter()
                        .position(|t| t.1 == run && u16::from(t.0) == kind)
                };
                let mut out = Vec::new();
                for (i, s) in sets.iter().enumerate() {
                    if s.1 != run || (name == "ittsu" && s.0 % 9 != 0) {
                        continue;
                    }
                    let k = u16::from(s.0);
                    if let (Some(b), Some(c)) = (find(k + step), find(k + 2 * step)) {
                        out.push(vec![i, b, c]);
                    }
                }
                out
            }
            "shousangen" => vec![(0..sets.len())
                .filter(|&i| DRAGONS.contains(&sets[i].0) && !sets[i].1)
                .collect()],
            "sankantsu" => vec![(0..sets.len()).filter(|&i| sets[i].3).collect()],
            "sanankou" => vec![(0..sets.len())
                .filter(|&i| !sets[i].1 && sets[i].2)
                .collect()],
            _ => Vec::new(),
        }
    }

    fn uses(&self, name: &str, r: &YakuReading, i: usize) -> bool {
        if WHOLE_HAND.contains(&name) {
            return true;
        }
        if FLUSH.contains(&name) {
            return self.o.flush;
        }
        if name == "sanankou" {
            return false;
        }
        Self::groups(name, r).iter().any(|g| g.contains(&i))
    }

    fn complete_concealed(&self, name: &str, r: &YakuReading) -> bool {
        if name == "sanankou" {
            return true;
        }
        if WHOLE_HAND.contains(&name) || FLUSH.contains(&name) {
            return false;
        }
        Self::groups(name, r)
            .iter()
            .any(|g| !g.is_empty() && !g.iter().any(|&i| self.is_call(r, i)))
    }

    /// S1 for one reading (`_settled`).
    fn settled(&self, r: &YakuReading, q: &[&str], j: usize) -> bool {
        let first = r.concealed_sets + j;
        if self.o.value_first && !q.is_empty() && q.iter().all(|y| value_kind(y).is_some()) {
            return q.iter().any(|y| self.uses(y, r, first));
        }
        let mut ok = q.iter().any(|y| self.uses(y, r, first))
            || (self.o.concealed && q.iter().any(|y| self.complete_concealed(y, r)));
        if ok && self.o.all_calls {
            ok = (r.concealed_sets..r.sets.len())
                .filter(|&i| self.is_call(r, i))
                .all(|i| q.iter().any(|y| self.uses(y, r, i)));
        }
        ok
    }

    /// What the win breaks (`judge_win` past its first checks), or the game declined.
    fn judge(&self) -> Result<Vec<Judgement>, Declined> {
        let sit = self.sit;
        if asks_library(sit, &self.rules) {
            return Err("a winning hand only the mahjong library values (yakuman?)".into());
        }
        let mut out = Vec::new();
        let rs = yaku_readings(sit, &self.rules);
        if rs.is_empty() {
            return Ok(out);
        }
        let incidental = self.incidental(false);
        let quals: Vec<Vec<&str>> = rs
            .iter()
            .map(|r| self.qualifying(r, sit, &incidental))
            .collect();
        if quals.iter().all(Vec::is_empty) {
            if !self.o.incidental {
                let evidence = vec![("readings", readings_text(&rs))];
                out.push((
                    "sakizuke-incidental",
                    "a win on incidental yaku only".into(),
                    evidence,
                ));
            }
            return Ok(out);
        }
        if let Some(j) = sit.melds.iter().position(|m| m.kind != MeldKind::ClosedKan) {
            if !rs.iter().zip(&quals).any(|(r, q)| self.settled(r, q, j)) {
                let call = call_text(sit, j);
                let message = format!(
                    "the first call ({call}) carries no yaku of the winning hand, and no yaku \
                     is complete in its concealed part"
                );
                let evidence = vec![("first call", call), ("readings", readings_text(&rs))];
                out.push(("sakizuke-first-call", message, evidence));
            }
        }
        out.extend(self.one_sided()?);
        Ok(out)
    }

    /// S2 (`_one_sided`).
    fn one_sided(&self) -> Result<Option<Judgement>, Declined> {
        let sit = self.sit;
        let mut tenpai = sit.hand.clone();
        let Some(at) = tenpai.iter().position(|&t| t == sit.win_tile) else {
            return Err("the win tile is not in the winning hand".into());
        };
        tenpai.remove(at);
        let Some(counts) = counts_of(tenpai.iter().map(|&t| usize::from(t))) else {
            return Err("a tile of no riichi kind in the tenpai hand".into());
        };
        let mask = waits(&counts, sit.melds.len());
        let incidental = self.incidental(self.o.menzen_tsumo == "ignored");
        let mut per_wait: Vec<(usize, Vec<&str>)> = Vec::new();
        for k in kinds_of_mask(mask) {
            let tile = u16::try_from(4 * k + 1).unwrap_or(NUM_TILES);
            let mut hand = tenpai.clone();
            hand.push(tile);
            hand.sort_unstable();
            let w = Situation {
                hand,
                win_tile: tile,
                ..sit.clone()
            };
            let mut names: Vec<&str> = Vec::new();
            for r in yaku_readings(&w, &self.rules) {
                names.extend(self.qualifying(&r, &w, &incidental));
            }
            names.sort_unstable();
            names.dedup();
            if names.is_empty() && asks_library(&w, &self.rules) {
                return Err("a winning tile only the mahjong library values (yakuman?)".into());
            }
            per_wait.push((k, names));
        }
        let mut evidence = vec![("waits", kinds_text(mask))];
        for (k, names) in &per_wait {
            let text = if names.is_empty() {
                "no yaku".to_string()
            } else {
                names.join(", ")
            };
            evidence.push((leak(kinds_text(1 << k)), text));
        }
        let bare: u64 = per_wait
            .iter()
            .filter(|(_, n)| n.is_empty())
            .fold(0, |m, (k, _)| m | 1 << k);
        if bare != 0 {
            let message = format!(
                "one-sided wait (片和了り): {} would give no yaku",
                kinds_text(bare)
            );
            return Ok(Some(("sakizuke-one-sided", message, evidence)));
        }
        if !self.o.oute_bisha && per_wait.len() > 1 {
            let norm: Vec<Vec<&str>> = per_wait.iter().map(|(_, n)| self.normal(n)).collect();
            let common = norm[0].iter().any(|y| norm.iter().all(|n| n.contains(y)));
            if !common {
                let message = "王手飛車: every winning tile gives a yaku, but no yaku is \
                               common to all"
                    .to_string();
                return Ok(Some(("sakizuke-one-sided", message, evidence)));
            }
        }
        Ok(None)
    }

    fn normal<'n>(&self, names: &[&'n str]) -> Vec<&'n str> {
        if self.o.oute_bisha_yakuhai && names.iter().any(|y| value_kind(y).is_some()) {
            let mut out: Vec<&str> = names
                .iter()
                .copied()
                .filter(|y| value_kind(y).is_none())
                .collect();
            out.push("yakuhai");
            return out;
        }
        names.to_vec()
    }
}

/// Evidence names are `&'static str`: a wait's kind text, interned once per kind.
fn leak(text: String) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let names = NAMES.get_or_init(|| Mutex::new(HashMap::new()));
    let mut names = match names.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(&name) = names.get(&text) {
        return name;
    }
    let name: &'static str = Box::leak(text.clone().into_boxed_str());
    names.insert(text, name);
    name
}

/// The meld `j` of the situation as `_call_text` writes it: `chi 345m`, `pon 555z`.
fn call_text(sit: &Situation, j: usize) -> String {
    let Some(m) = sit.melds.get(j) else {
        return String::new();
    };
    let k = m.tiles.iter().map(|&t| (t >> 2) as u8).min().unwrap_or(0);
    let (what, chi, kan) = match m.kind {
        MeldKind::Chi => ("chi", true, false),
        MeldKind::Pon => ("pon", false, false),
        MeldKind::OpenKan => ("open kan", false, true),
        MeldKind::AddedKan => ("added kan", false, true),
        MeldKind::ClosedKan => ("closed kan", false, true),
        MeldKind::Other => ("other", false, false), // no reading has it: never shown
    };
    format!("{what} {}", set_text((k, chi, false, kan)))
}

/// Whether a tile id of the record is a riichi tile.
fn known(t: i64) -> bool {
    (0..i64::from(NUM_TILES)).contains(&t)
}

impl Sakizuke {
    fn before_win(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Ev::Win {
            winner,
            from,
            win_tile,
            ura,
            ..
        } = ev
        else {
            return;
        };
        let Some(o) = c.options.sakizuke.as_ref() else {
            return;
        };
        if from == winner && o.ron_only {
            return;
        }
        let Some(p) = usize::try_from(*winner).ok() else {
            return;
        };
        let Some(unknown) = c.seat(p).map(|s| s.unknown) else {
            return;
        };
        if unknown != 0 {
            let why = format!(
                "{unknown} tiles of the winner's hand are unknown (?), so its readings are"
            );
            c.unjudged("sakizuke-first-call", why, Some(p));
            return;
        }
        let Some(at) = self
            .situations
            .found
            .last()
            .filter(|at| at.index == c.engine.index())
        else {
            c.decline("no native situation of the win".into());
            return;
        };
        let riichi = at.sit.riichi || at.sit.double_riichi;
        let shown_ura: &[i64] = if riichi { ura } else { &[] };
        if !known(*win_tile) || !self.dora.iter().chain(shown_ura).all(|&t| known(t)) {
            c.decline("a win or indicator tile of no riichi kind".into());
            return;
        }
        let judge = Judge {
            sit: &at.sit,
            rules: rules_of(c.options),
            o,
        };
        match judge.judge() {
            Err(why) => c.decline(why),
            Ok(found) => {
                for (code, message, evidence) in found {
                    c.violation(ev, code, message, Some(p), evidence, STILL);
                }
            }
        }
    }
}

impl Check for Sakizuke {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        self.situations.before(c.engine, ev);
        match ev {
            Ev::RoundStart { dora, .. } => {
                self.dora = if *dora == 144 {
                    Vec::new()
                } else {
                    vec![*dora]
                };
                self.situations.found.clear();
            }
            Ev::Win { .. } => self.before_win(c, ev),
            _ => {}
        }
    }

    fn after(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        self.situations.after(c.engine, ev);
        if let Ev::Dora { tile } = ev {
            self.dora.push(*tile);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::riichi::Options;

    #[test]
    fn readings_are_written_as_python_writes_them() {
        let r = YakuReading {
            pair: 27,
            sets: vec![
                (0, true, true, false),
                (31, false, false, false),
                (9, false, true, true),
            ],
            concealed_sets: 1,
            yaku: vec!["haku", "sanankou"],
        };
        assert_eq!(reading_text(&r), "123m 555z 1111p 11z: haku, sanankou");
        assert_eq!(readings_text(&[]), "none");
        assert_eq!(leak("5m".into()), leak("5m".into()));
    }

    #[test]
    fn groups_find_the_sets_of_a_yaku() {
        let r = YakuReading {
            pair: 0,
            sets: vec![
                (0, true, true, false),
                (9, true, true, false),
                (18, true, false, false),
            ],
            concealed_sets: 2,
            yaku: vec!["sanshoku"],
        };
        assert_eq!(Judge::groups("sanshoku", &r), vec![vec![0, 1, 2]]);
        assert!(Judge::groups("ittsu", &r).is_empty());
        assert_eq!(Judge::groups("sanankou", &r), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn the_switches_are_read_by_name() {
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let o = Options::from_pairs(&pairs(&[("sakizuke", "0")])).unwrap();
        assert!(o.sakizuke.is_none());
        let o = Options::from_pairs(&pairs(&[
            ("sakizuke", "1"),
            ("sakizuke_menzen_tsumo", "ignored"),
            ("oute_bisha", "0"),
        ]));
        assert!(o.is_err(), "oute_bisha goes by its own name");
        let o = Options::from_pairs(&pairs(&[
            ("sakizuke", "1"),
            ("sakizuke_menzen_tsumo", "ignored"),
            ("sakizuke_oute_bisha", "0"),
        ]))
        .unwrap();
        let z = o.sakizuke.unwrap();
        assert_eq!(z.menzen_tsumo, "ignored");
        assert!(!z.oute_bisha);
        assert!(Options::from_pairs(&pairs(&[("sakizuke_nope", "1")])).is_err());
    }
}
