//! The subset of Tenhou mjlog XML the native readers take, and the values in it.
//!
//! A native reader reads only records the Python reader (`mjlog/formats/tenhou_xml.py`)
//! reads without a diagnostic, and of those only what it reproduces exactly: every
//! function here *declines* (returns the reason) on anything else, a DTD, a comment, an
//! entity, a nested element, a number the Python reader parses more leniently, and the
//! caller takes the Python route.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// The most attributes an element may have (the Python reader's `MAX_ATTRIBUTES`).
const MAX_ATTRIBUTES: usize = 256;
pub const NUM_TILES: i64 = 136;

/// Why a record is left to the Python route.
pub type Declined = String;

/// Attributes of one element, in document order, owned (handed to Python).
pub type Attrs = Vec<(String, String)>;

/// Attributes of the element being read, borrowed from it (no copy).
pub type Borrowed<'e> = Vec<(&'e str, std::borrow::Cow<'e, str>)>;

/// The `owari` the Python reader takes the final points' rounding from (its
/// `_owari_points`): the first non-empty one among the root's last four elements.
#[derive(Debug, Default)]
pub struct RoundingOwari {
    elements: usize,
    owaris: Vec<(usize, String)>,
}

impl RoundingOwari {
    /// Count one more element of the root, with its `owari` if it has one.
    pub fn element(&mut self, owari: Option<&str>) {
        self.elements += 1;
        if let Some(o) = owari.filter(|o| !o.is_empty()) {
            self.owaris.push((self.elements, o.to_string()));
        }
    }

    /// The rounding `owari` of the elements counted, if any.
    pub fn owari(&self) -> Option<String> {
        let last = self.elements.saturating_sub(4);
        let found = self.owaris.iter().find(|(at, _)| *at > last);
        found.map(|(_, o)| o.clone())
    }
}

/// Walk the root's child elements in order, calling `each` with the element and the line
/// its tag ends on (1-based, lxml's `sourceline`). Declines what the subset leaves out; `each` may decline.
pub fn walk(
    text: &[u8],
    mut each: impl FnMut(&BytesStart<'_>, usize) -> Result<(), Declined>,
) -> Result<usize, Declined> {
    let text = std::str::from_utf8(text).map_err(|_| "not UTF-8".to_string())?;
    let mut reader = Reader::from_str(text);
    let (mut depth, mut closed, mut root_line) = (0usize, false, 0usize);
    let (mut line, mut counted) = (1usize, 0usize);
    loop {
        let event = reader.read_event();
        // the line an element's tag ends on, as libxml2 (lxml's sourceline) gives it
        let at = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        if let Some(read) = text.get(counted..at) {
            line += read.bytes().filter(|b| *b == b'\n').count();
            counted = at;
        }
        match event {
            Err(e) => return decline(format!("XML: {e}")),
            Ok(Event::Eof) => break,
            Ok(Event::Start(el)) if depth == 0 && !closed => {
                if el.name().as_ref() != "mjloggm" {
                    return decline("the root is not <mjloggm>");
                }
                attributes(&el)?;
                depth = 1;
                root_line = line;
            }
            Ok(Event::End(_)) if depth == 1 => {
                depth = 0;
                closed = true;
            }
            Ok(Event::Empty(el)) if depth == 1 => each(&el, line)?,
            Ok(Event::Text(t)) if t.bytes().all(|b| b.is_ascii_whitespace()) => {}
            Ok(Event::Decl(d)) if depth == 0 && !closed => {
                if let Some(enc) = d.encoding() {
                    let enc = enc.map_err(|e| format!("XML: {e}"))?;
                    if !enc.eq_ignore_ascii_case("utf-8") {
                        return decline("an encoding other than UTF-8");
                    }
                }
            }
            Ok(other) => return decline(format!("XML of another shape: {other:?}")),
        }
    }
    if !closed {
        return decline("no root element");
    }
    Ok(root_line)
}

pub fn decline<T>(why: impl Into<String>) -> Result<T, Declined> {
    Err(why.into())
}

/// The attributes of an element, checked to be ones whose value is exactly the raw text
/// (no entity, no character the XML parser would normalise, no namespace).
pub fn attributes<'e>(el: &'e BytesStart<'_>) -> Result<Borrowed<'e>, Declined> {
    let mut out = Borrowed::new();
    for attr in el.attributes() {
        let attr = attr.map_err(|e| format!("attribute: {e}"))?;
        let key: &str = attr.key.0;
        if key.contains(':')
            || attr
                .value
                .bytes()
                .any(|b| b == b'&' || b < 0x20 || b == b'<')
        {
            return decline("an attribute the Python reader reads differently");
        }
        out.push((key, attr.value));
        if out.len() > MAX_ATTRIBUTES {
            return decline("too many attributes");
        }
    }
    Ok(out)
}

pub fn get<'a>(attrs: &'a Borrowed<'_>, key: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.as_ref())
}

/// An integer as the Python reader's `int()` takes it, restricted to plain ASCII digits
/// with an optional minus sign and to magnitudes below 10,000,000 (anything else is
/// declined).
pub fn int(text: &str) -> Result<i64, Declined> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || digits.len() > 15 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return decline(format!("not a plain integer: {text:?}"));
    }
    let value = text
        .parse::<i64>()
        .map_err(|_| format!("not a plain integer: {text:?}"))?;
    if value.abs() >= BIGGEST {
        return decline(format!(
            "a number past the ranges the Python route checks: {text}"
        ));
    }
    Ok(value)
}

/// Numbers of a Tenhou record are at most this (scores and points are in hundreds): a
/// larger one is past the ranges `mjlog.formats.limits` holds every reader to, which the
/// Python route reports.
const BIGGEST: i64 = 10_000_000;

/// The most honba, riichi sticks, han or fu (`mjlog.formats.limits.COUNT_LIMIT`).
pub const COUNT_LIMIT: i64 = 999;

/// `_ints`: a comma-separated list (empty text: none); `None`: missing.
pub fn ints(text: Option<&str>) -> Result<Vec<i64>, Declined> {
    match text {
        None => decline("a missing attribute"),
        Some("") => Ok(vec![]),
        Some(t) => t.split(',').map(int).collect(),
    }
}

pub fn one_int(text: Option<&str>) -> Result<i64, Declined> {
    let v = ints(text)?;
    if v.len() != 1 {
        return decline("not one integer");
    }
    Ok(v[0])
}

/// `_tiles`: tile ids written exactly as `str(id)` (0..135).
pub fn tiles(text: Option<&str>) -> Result<Vec<u8>, Declined> {
    match text {
        None => decline("a missing attribute"),
        Some("") => Ok(vec![]),
        Some(t) => t.split(',').map(tile).collect(),
    }
}

pub fn tile(text: &str) -> Result<u8, Declined> {
    let ok = !text.is_empty()
        && text.len() <= 3
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    match text.parse::<i64>() {
        Ok(t) if ok && t < NUM_TILES => Ok(t as u8),
        _ => decline(format!("not a tile id: {text:?}")),
    }
}

/// A move's tag (`D52`: seat 0 discards tile 52) as `(k, tile)`: `k` 0..3 a draw by
/// that seat, 4..7 a discard by seat `k - 4`; `None` for any other tag. Digits are ASCII,
/// one to three (the Python reader's rule); the tile is not checked here.
pub fn move_tag(tag: &str) -> Option<(usize, i64)> {
    let bytes = tag.as_bytes();
    let k = b"TUVWDEFG".iter().position(|c| Some(c) == bytes.first())?;
    let digits = &bytes[1..];
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some((
        k,
        digits.iter().fold(0, |v, d| v * 10 + i64::from(d - b'0')),
    ))
}

/// What a meld bit field is, as `decode_meld` decodes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meld {
    Chi,
    Pon,
    OpenKan,
    AddedKan,
    ClosedKan,
    Kita,
}

impl Meld {
    /// Whether a replacement draw follows it (a kan or a kita).
    pub fn replaced(self) -> bool {
        !matches!(self, Meld::Chi | Meld::Pon)
    }
}

/// Decode a meld bit field's kind, refusing what `decode_meld` refuses (and, more
/// strictly, any negative field).
pub fn meld(m: i64) -> Result<Meld, Declined> {
    if m < 0 {
        return decline("a negative meld bit field");
    }
    let bad = || decline("a meld bit field that names no meld");
    if m & 0x4 != 0 {
        let t = ((m & 0xFC00) >> 10) / 3;
        return if (t / 7) * 9 + t % 7 + 2 >= 27 {
            bad()
        } else {
            Ok(Meld::Chi)
        };
    }
    if m & 0x18 != 0 {
        let t = ((m & 0xFE00) >> 9) / 3;
        if t >= 34 {
            return bad();
        }
        return Ok(if m & 0x8 != 0 {
            Meld::Pon
        } else {
            Meld::AddedKan
        });
    }
    if m & 0x20 != 0 {
        return if (m >> 8) >= NUM_TILES {
            bad()
        } else {
            Ok(Meld::Kita)
        };
    }
    if ((m & 0xFF00) >> 8) >= NUM_TILES {
        return bad();
    }
    Ok(if m & 3 == 0 {
        Meld::ClosedKan
    } else {
        Meld::OpenKan
    })
}
