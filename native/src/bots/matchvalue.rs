//! The search's match objective (`bones.bots.matchvalue`): the value of a
//! finished hand (or of a hand the target ended) for one side as its
//! probability of winning the match, in parts of [`WIN`], read from a table
//! of `P(win | my score, the best other side's score)` (the highest other
//! score, in a penalty match the lowest) that the Python
//! side compiles once per rule table and hands over as integers, so both
//! cores value every outcome with the same numbers.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

/// A certain win, in the table's units (a probability of 1).
pub const WIN: i64 = 1_000_000;

/// `P(win the match | scores)` for a side, by score cells of `step` points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchTable {
    /// points per cell: a score `s` is read in cell `s / step`
    step: i64,
    /// cells per axis (the scores from 0 to just below the target)
    cells: usize,
    /// `values[mine * cells + theirs]`, in parts of `WIN`
    values: Vec<i64>,
}

impl MatchTable {
    /// A table of `cells` x `cells` values, or why it cannot be one.
    pub fn new(step: i64, cells: usize, values: Vec<i64>) -> Result<MatchTable, String> {
        if step < 1 || cells < 1 || values.len() != cells * cells {
            return Err(format!(
                "a match table needs a step of at least 1 and {cells} x {cells} values"
            ));
        }
        if values.iter().any(|&v| !(0..=WIN).contains(&v)) {
            return Err(format!("a match table's values lie between 0 and {WIN}"));
        }
        Ok(MatchTable { step, cells, values })
    }

    fn cell(&self, score: i64) -> usize {
        let last = self.cells - 1;
        usize::try_from(score.max(0) / self.step).map_or(last, |c| c.min(last))
    }

    /// The value for side `me` of a hand that ended with `scores` (the
    /// match's), `game_over` and `winner` (the side that won the match,
    /// `None` for a drawn one), read against the best other side's score
    /// (`best_other`: the lowest in a `penalty` match).
    pub fn value(
        &self,
        scores: &[i64],
        me: usize,
        game_over: bool,
        winner: Option<usize>,
        penalty: bool,
    ) -> i64 {
        if game_over {
            return match winner {
                Some(w) if w == me => WIN,
                Some(_) => 0,
                None => WIN / 2,
            };
        }
        let theirs = best_other(scores, me, penalty);
        self.values[self.cell(scores[me]) * self.cells + self.cell(theirs)]
    }
}

/// `matchvalue.best_other`: the score of the side that threatens side `me`,
/// the highest other score, in a `penalty` match (the lowest score wins) the
/// lowest (0 without another side).
pub fn best_other(scores: &[i64], me: usize, penalty: bool) -> i64 {
    let others = scores.iter().enumerate().filter(|&(o, _)| o != me).map(|(_, &s)| s);
    if penalty { others.min() } else { others.max() }.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_cells_and_the_match_end() {
        // 2 cells of 10 points: 0-9 and 10 up
        let t = MatchTable::new(10, 2, vec![500_000, 200_000, 800_000, 500_000]).unwrap();
        assert_eq!(t.value(&[3, 12], 0, false, None, false), 200_000);
        assert_eq!(t.value(&[3, 12], 1, false, None, false), 800_000);
        assert_eq!(t.value(&[-5, 0], 0, false, None, false), 500_000);
        assert_eq!(t.value(&[99, 0], 0, false, None, false), 800_000);
        assert_eq!(t.value(&[0, 0], 1, true, Some(1), false), WIN);
        assert_eq!(t.value(&[0, 0], 0, true, Some(1), false), 0);
        assert_eq!(t.value(&[0, 0], 0, true, None, false), WIN / 2);
        assert!(MatchTable::new(0, 2, vec![0; 4]).is_err());
        // three sides: a penalty match reads the lowest other score
        let scores = [3, 12, 4];
        assert_eq!((best_other(&scores, 0, false), best_other(&scores, 0, true)), (12, 4));
        assert_eq!(best_other(&[7], 0, true), 0);
        assert_eq!(t.value(&scores, 0, false, None, false), 200_000);
        assert_eq!(t.value(&scores, 0, false, None, true), 500_000);
        assert_eq!(t.value(&scores, 1, false, None, true), 800_000);
        assert!(MatchTable::new(1, 2, vec![0; 3]).is_err());
        assert!(MatchTable::new(1, 1, vec![WIN + 1]).is_err());
    }
}
