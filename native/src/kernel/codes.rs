//! The rule codes of the flat table (`bones.engine.flat.TABLE_FORMAT`), as
//! enums. The table's ints decode once, when a table is loaded
//! (`TryFrom<i64>`): an unknown code is an error there, never a panic later,
//! and the hand matches the enums exhaustively.
//!
//! Each enum lists its codes under the names the Python modules give them
//! (`rules.SPIN_*`, `settle.TIES_*`, ...), so `bones_native.constants()` can
//! show them and `tests/test_shared_constants.py` compare them.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

macro_rules! rule_codes {
    ($(#[$doc:meta])* $name:ident, $what:literal, $family:literal {
        $($(#[$vdoc:meta])* $variant:ident = $code:literal => $py:literal),+ $(,)?
    }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant = $code),+
        }

        impl $name {
            /// The family name and every code, as the Python side names them.
            pub const CODES: (&'static str, &'static [(&'static str, i64)]) =
                ($family, &[$(($py, $code)),+]);
        }

        impl Default for $name {
            /// The family's first code (what a test table leaves unset).
            fn default() -> Self {
                [$($name::$variant),+][0]
            }
        }

        impl From<$name> for i64 {
            /// The code the flat table writes.
            fn from(value: $name) -> i64 {
                match value {
                    $($name::$variant => $code),+
                }
            }
        }

        impl TryFrom<i64> for $name {
            type Error = String;

            fn try_from(code: i64) -> Result<Self, String> {
                match code {
                    $($code => Ok($name::$variant),)+
                    _ => Err(format!("unknown {} code {} in the flat table", $what, code)),
                }
            }
        }
    };
}

rule_codes! {
    /// Which doubles become spinners (`rules.SPIN_*`).
    Spinner, "spinner", "SPIN" {
        None = 0 => "SPIN_NONE",
        First = 1 => "SPIN_FIRST",
        Every = 2 => "SPIN_EVERY",
        Led = 3 => "SPIN_LED",
        /// the in-line sniff: the first double, its cross ends stubs
        Inline = 4 => "SPIN_INLINE",
        EveryButLed = 5 => "SPIN_EVERY_BUT_LED",
    }
}

rule_codes! {
    /// The order a spinner's edges open in (`rules.ORDER_*`).
    Order, "edge order", "ORDER" {
        Sides = 0 => "ORDER_SIDES",
        Any = 1 => "ORDER_ANY",
        All4 = 2 => "ORDER_ALL4",
    }
}

rule_codes! {
    /// When a count scores (`rules.WHEN_*`).
    When, "scoring predicate", "WHEN" {
        NoPredicate = 0 => "WHEN_NONE",
        MultipleOf = 1 => "WHEN_MULTIPLE_OF",
        InList = 2 => "WHEN_IN_LIST",
        MatchingEnds = 3 => "WHEN_MATCHING_ENDS",
    }
}

rule_codes! {
    /// What a scoring count is worth (`rules.POINTS_*`).
    Points, "points form", "POINTS" {
        Count = 0 => "POINTS_COUNT",
        Divided = 1 => "POINTS_DIVIDED",
        SumOfQuotients = 2 => "POINTS_SUM_OF_QUOTIENTS",
        PerDivisor = 3 => "POINTS_PER_DIVISOR",
        Flat = 4 => "POINTS_FLAT",
    }
}

rule_codes! {
    /// Drawing from the boneyard (`rules.DRAW_*`).
    Drawing, "drawing", "DRAW" {
        None = 0 => "DRAW_NONE",
        Until = 1 => "DRAW_UNTIL",
        Limited = 2 => "DRAW_LIMITED",
    }
}

rule_codes! {
    /// When the target is checked (`rules.CHECK_*`).
    Check, "target check", "CHECK" {
        None = 0 => "CHECK_NONE",
        HandEnd = 1 => "CHECK_HAND_END",
        Immediate = 2 => "CHECK_IMMEDIATE",
        Exact = 3 => "CHECK_EXACT",
        /// only the hand's winner is tested, after settlement
        HandWinner = 4 => "CHECK_HAND_WINNER",
        /// scores are penalties: a side reaching the target loses, the lowest wins
        Penalty = 5 => "CHECK_PENALTY",
    }
}

rule_codes! {
    /// Points a player misses (`rules.MUGGINS_*`).
    Muggins, "muggins", "MUGGINS" {
        Off = 0 => "MUGGINS_OFF",
        Transfer = 1 => "MUGGINS_TRANSFER",
        Forfeit = 2 => "MUGGINS_FORFEIT",
    }
}

rule_codes! {
    /// Who scores the true points of a rejected over-claim (`rules.OVER_CLAIM_*`).
    OverClaim, "over-claim points", "OVER_CLAIM" {
        Lost = 0 => "OVER_CLAIM_LOST",
        Caller = 1 => "OVER_CLAIM_CALLER",
        Claimer = 2 => "OVER_CLAIM_CLAIMER",
    }
}

rule_codes! {
    /// Who scores at the end of a hand (`settle.SETTLE_*`).
    SettleKind, "settlement kind", "SETTLE" {
        Nobody = 0 => "SETTLE_NOBODY",
        OwnPenalty = 1 => "SETTLE_OWN_PENALTY",
        EachHeavier = 2 => "SETTLE_EACH_HEAVIER",
        DominoEr = 3 => "SETTLE_DOMINOER",
        Lightest = 4 => "SETTLE_LIGHTEST",
        /// the locker's hand against a neighbour's
        Locker = 5 => "SETTLE_LOCKER",
        /// every side but the winner is charged its own pips
        LosersPay = 6 => "SETTLE_LOSERS_PAY",
    }
}

rule_codes! {
    /// The amount a settlement pays (`settle.AMOUNT_*`).
    Amount, "settlement amount", "AMOUNT" {
        Opponents = 0 => "AMOUNT_OPPONENTS",
        OpponentsMinusOwn = 1 => "AMOUNT_OPPONENTS_MINUS_OWN",
        AllHands = 2 => "AMOUNT_ALL_HANDS",
        Flat = 3 => "AMOUNT_FLAT",
    }
}

rule_codes! {
    /// Tied lightest hands (`settle.TIES_*`).
    Ties, "settlement ties", "TIES" {
        Nobody = 0 => "TIES_NOBODY",
        Share = 1 => "TIES_SHARE",
        NotBlocker = 2 => "TIES_NOT_BLOCKER",
        Full = 3 => "TIES_FULL",
        Carry = 4 => "TIES_CARRY",
        /// the tied hand that made the last play wins
        Blocker = 5 => "TIES_BLOCKER",
    }
}

rule_codes! {
    /// What a settlement rounds apart (`settle.PER_*`).
    Per, "rounding per", "PER" {
        Aggregate = 0 => "PER_AGGREGATE",
        Opponent = 1 => "PER_OPPONENT",
        Player = 2 => "PER_PLAYER",
    }
}

rule_codes! {
    /// Which way a settlement rounds (`settle.ROUND_*`).
    Round, "rounding", "ROUND" {
        Nearest = 0 => "ROUND_NEAREST",
        Up = 1 => "ROUND_UP",
        Down = 2 => "ROUND_DOWN",
    }
}

rule_codes! {
    /// A first-lead rule (`rules.LEAD_*`).
    LeadKind, "lead rule", "LEAD" {
        Lot = 0 => "LEAD_LOT",
        Random = 1 => "LEAD_RANDOM",
        HighestDouble = 2 => "LEAD_HIGHEST_DOUBLE",
        LowestDouble = 3 => "LEAD_LOWEST_DOUBLE",
        Tile = 4 => "LEAD_TILE",
        Seat = 5 => "LEAD_SEAT",
        LightestTile = 6 => "LEAD_LIGHTEST_TILE",
        /// the first tile dealt of `MatchRules::lead_tiles`
        Tiles = 7 => "LEAD_TILES",
        /// after a blocked hand: its last player
        Locker = 8 => "LEAD_LOCKER",
    }
}

rule_codes! {
    /// What a double or tile lead does when nobody holds one (`rules.NONE_*`;
    /// the table's -1, a rule without the choice, decodes to `Option::None`).
    IfNone, "lead fallback", "NONE" {
        DrawMore = 0 => "NONE_DRAW_MORE",
        HeaviestHand = 1 => "NONE_HEAVIEST_HAND",
        HeaviestTile = 2 => "NONE_HEAVIEST_TILE",
        Lot = 3 => "NONE_LOT",
        Redeal = 4 => "NONE_REDEAL",
        HighestDouble = 5 => "NONE_HIGHEST_DOUBLE",
        LightestTile = 6 => "NONE_LIGHTEST_TILE",
    }
}

rule_codes! {
    /// Who leads the later hands (`rules.LATER_*`).
    Later, "later-lead rule", "LATER" {
        Dominoer = 0 => "LATER_DOMINOER",
        Winner = 1 => "LATER_WINNER",
        RotateNext = 2 => "LATER_ROTATE_NEXT",
        RotatePrevious = 3 => "LATER_ROTATE_PREVIOUS",
        Alternate = 4 => "LATER_ALTERNATE",
        Series = 5 => "LATER_SERIES",
        First = 6 => "LATER_FIRST",
    }
}

rule_codes! {
    /// What a lightest comparison compares (`settle.COMPARE_*`).
    Compare, "comparison", "COMPARE" {
        Side = 0 => "COMPARE_SIDE",
        Player = 1 => "COMPARE_PLAYER",
    }
}

rule_codes! {
    /// The locker's neighbour (`settle.AGAINST_*`).
    Against, "locker's neighbour", "AGAINST" {
        Previous = 0 => "AGAINST_PREVIOUS",
        Next = 1 => "AGAINST_NEXT",
    }
}

rule_codes! {
    /// An optional extra play after a double (`rules.AFTER_*`).
    AfterDouble, "extra play", "AFTER" {
        None = 0 => "AFTER_NONE",
        AnotherDouble = 1 => "AFTER_ANOTHER_DOUBLE",
        ExtraTile = 2 => "AFTER_EXTRA_TILE",
    }
}

/// Every family of rule codes, for `bones_native.constants()`.
pub const FAMILIES: &[(&str, &[(&str, i64)])] = &[
    Spinner::CODES,
    Order::CODES,
    When::CODES,
    Points::CODES,
    Drawing::CODES,
    Check::CODES,
    Muggins::CODES,
    OverClaim::CODES,
    SettleKind::CODES,
    Amount::CODES,
    Ties::CODES,
    Per::CODES,
    Round::CODES,
    LeadKind::CODES,
    IfNone::CODES,
    Later::CODES,
    Compare::CODES,
    Against::CODES,
    AfterDouble::CODES,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_decodes_to_itself_and_others_are_errors() {
        for (family, codes) in FAMILIES {
            assert!(!codes.is_empty(), "{family}");
        }
        for &(_, code) in Ties::CODES.1 {
            assert_eq!(i64::from(Ties::try_from(code).unwrap()), code);
        }
        assert_eq!(Spinner::try_from(5), Ok(Spinner::EveryButLed));
        assert_eq!(
            Spinner::try_from(6),
            Err("unknown spinner code 6 in the flat table".to_string())
        );
        assert!(Later::try_from(-1).is_err());
    }
}
