//! Payments: who pays whom at a win or a draw, and what the next round starts with
//! (twin of `mjlog.families.riichi.scoring.payments`).
//!
//! Pure arithmetic on values already computed; no table state. Seats are indices below
//! `players`; the caller checks them (Python would index from the end with a negative
//! seat, which no caller does).

use super::up100;

/// Each seat's score change (twin of `payments.split_deltas`): a ron pays `main` from
/// `payer`; a tsumo (`payer` `None`) `main` from the dealer (from everyone when the
/// dealer wins) and `additional` from the others; 100 per honba from each payer (all on
/// the discarder for a ron); the sticks to the winner. With a liable seat `pao`, the
/// hand worth `whole` as a ron: on a tsumo pao pays it all, on a ron half and the honba.
#[allow(clippy::too_many_arguments)]
pub fn split_deltas(
    players: usize,
    winner: usize,
    payer: Option<usize>,
    dealer: usize,
    main: i64,
    additional: i64,
    honba: i64,
    sticks: i64,
    pao: Option<usize>,
    whole: i64,
) -> Vec<i64> {
    let n = players as i64;
    let mut deltas = vec![0i64; players];
    let w = winner;
    match (pao.filter(|&p| p != w), payer) {
        (Some(pao), None) => deltas[pao] -= whole + 100 * honba * (n - 1),
        (Some(pao), Some(payer)) => {
            deltas[pao] -= whole.div_euclid(2) + 100 * (n - 1) * honba;
            deltas[payer] -= whole - whole.div_euclid(2);
        }
        (None, Some(payer)) => deltas[payer] -= main + 100 * (n - 1) * honba,
        (None, None) => {
            for (p, d) in deltas.iter_mut().enumerate() {
                if p != w {
                    *d -= if dealer == p || dealer == w {
                        main
                    } else {
                        additional
                    } + 100 * honba;
                }
            }
        }
    }
    let total: i64 = deltas.iter().sum();
    deltas[w] -= total;
    deltas[w] += 1000 * sticks;
    deltas
}

/// What a hand is worth as a ron (twin of `payments._ron_value`): a tsumo's `main` and
/// `additional` added up as the payers pay them in a four-player game.
pub fn ron_value(main: i64, additional: i64, tsumo: bool, dealer_won: bool) -> i64 {
    if !tsumo {
        main
    } else if dealer_won {
        main * 3
    } else {
        main + 2 * additional
    }
}

/// A win's deltas from its value (twin of `payments.win_deltas`): `honba` is the round's
/// count when this winner collects it, else 0; `whole` the liable part's
/// [`ron_value`].
#[allow(clippy::too_many_arguments)]
pub fn win_deltas(
    players: usize,
    winner: usize,
    from_player: usize,
    dealer: usize,
    main: i64,
    additional: i64,
    honba: i64,
    sticks: i64,
    pao: Option<usize>,
    whole: i64,
) -> Vec<i64> {
    let payer = (from_player != winner).then_some(from_player);
    split_deltas(
        players, winner, payer, dealer, main, additional, honba, sticks, pao, whole,
    )
}

/// Each seat's change for a win stated by its points alone (twin of
/// `payments.points_deltas`): a ron's payment, or a tsumo's total.
#[allow(clippy::too_many_arguments)]
pub fn points_deltas(
    points: i64,
    players: usize,
    winner: usize,
    payer: Option<usize>,
    dealer: usize,
    honba: i64,
    sticks: i64,
    pao: Option<usize>,
) -> Vec<i64> {
    let n = players as i64;
    let (main, additional) = if payer.is_some() {
        (points, points)
    } else if winner == dealer {
        let each = points.div_euclid(n - 1);
        (each, each)
    } else {
        let additional = up100(-(-points).div_euclid(if n == 4 { 4 } else { 3 }));
        (points - additional * (n - 2), additional)
    };
    split_deltas(
        players, winner, payer, dealer, main, additional, honba, sticks, pao, points,
    )
}

/// Noten payments (twin of `payments.noten_deltas`): the pool moves from the noten seats
/// to the tenpai ones.
pub fn noten_deltas(tenpai: &[bool], pool: i64) -> Vec<i64> {
    let n = tenpai.len() as i64;
    let k = tenpai.iter().filter(|&&t| t).count() as i64;
    if k == 0 || k == n {
        return vec![0; tenpai.len()];
    }
    tenpai
        .iter()
        .map(|&t| {
            if t {
                pool.div_euclid(k)
            } else {
                (-pool).div_euclid(n - k)
            }
        })
        .collect()
}

/// The noten payments of an exhaustive draw (twin of `payments.draw_deltas`):
/// `per_ready` to each ready player when set, else the usual pool (3000, or 2000 with
/// three players).
pub fn draw_deltas(tenpai: &[bool], per_ready: i64) -> Vec<i64> {
    let ready = tenpai.iter().filter(|&&t| t).count() as i64;
    let pool = if per_ready != 0 {
        per_ready * ready
    } else if tenpai.len() == 4 {
        3000
    } else {
        2000
    };
    noten_deltas(tenpai, pool)
}

/// Nagashi mangan payments (twin of `payments.nagashi_deltas`): each winner is paid a
/// mangan tsumo, no honba.
pub fn nagashi_deltas(winners: &[usize], dealer: usize, players: usize) -> Vec<i64> {
    let mut deltas = vec![0i64; players];
    for &w in winners {
        for p in 0..players {
            if p == w {
                continue;
            }
            let pay = if p == dealer || w == dealer {
                4000
            } else {
                2000
            };
            deltas[p] -= pay;
            deltas[w] += pay;
        }
    }
    deltas
}

/// `(round_wind, round_number, honba, dealer)` of the next round (twin of
/// `payments.next_round`).
pub fn next_round(
    round_wind: i64,
    round_number: i64,
    honba: i64,
    dealer: usize,
    players: usize,
    dealer_keeps: bool,
    honba_up: bool,
) -> (i64, i64, i64, usize) {
    let new_honba = if honba_up { honba + 1 } else { 0 };
    if dealer_keeps {
        return (round_wind, round_number, new_honba, dealer);
    }
    let mut number = round_number + 1;
    let mut wind = round_wind;
    if number > players as i64 {
        number = 1;
        wind += 1;
    }
    (wind, number, new_honba, (dealer + 1) % players)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ron_with_honba_and_sticks() {
        assert_eq!(
            split_deltas(4, 1, Some(2), 0, 3900, 0, 2, 1, None, 3900),
            vec![0, 5500, -4500, 0]
        );
    }

    #[test]
    fn non_dealer_tsumo_in_three_players() {
        assert_eq!(
            points_deltas(3000, 3, 1, None, 0, 1, 0, None),
            vec![-2100, 3200, -1100]
        );
    }

    #[test]
    fn pao_on_a_ron_splits_the_hand() {
        assert_eq!(
            split_deltas(4, 0, Some(1), 0, 48000, 0, 1, 0, Some(2), 48000),
            vec![48300, -24000, -24300, 0]
        );
    }

    #[test]
    fn noten_and_next_round() {
        assert_eq!(
            draw_deltas(&[true, false, false, false], 0),
            vec![3000, -1000, -1000, -1000]
        );
        assert_eq!(nagashi_deltas(&[1], 0, 4), vec![-4000, 8000, -2000, -2000]);
        assert_eq!(next_round(0, 4, 2, 3, 4, false, false), (1, 1, 0, 0));
    }
}
