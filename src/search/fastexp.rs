//! `e^x` without a call into the C library, for the Gibbs weights of NAST playouts
//! ([`crate::search::nast`]): the end-of-iteration update exponentiates once per move of the
//! game, and the library's `exp` (with its error-handling wrapper) was an eighth of a NAST
//! iteration's instructions. Within 2 units in the last place of `f64::exp` wherever that is
//! a normal number (tested below); outside `|x| <= 700` it is `f64::exp` itself.
//! (The `libm` crate's `exp`, tried in its place, made NAST iterations 10% slower than this.)
//!
//! The method is the textbook table one: `x = (64 m + j) ln2/64 + r` with `|r| <= ln2/128`,
//! so `e^x = 2^m * 2^(j/64) * e^r`, with `2^(j/64)` from a table of 64 correctly rounded
//! values and `e^r - 1` from a degree-5 polynomial (its truncation error is below 1e-16 of
//! the result on that range).

/// Beyond this, the result may leave the normal range the scaling by `2^m` assumes.
const LIMIT: f64 = 700.0;
/// `64 / ln 2`.
const INV_STEP: f64 = 92.33248261689366;
/// `1.5 * 2^52`: adding it rounds a float of magnitude below `2^51` to an integer (ties to
/// even) and leaves that integer in the low bits of the sum.
const SHIFT: f64 = 6_755_399_441_055_744.0;
/// `ln 2 / 64` in two parts (Cody and Waite): the high part has its low 21 bits zero, so its
/// product with any `|n| < 2^21` is exact.
const STEP_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000) / 64.0;
const STEP_LO: f64 = 1.908_214_929_270_587_7e-10 / 64.0;

/// `2^(j/64)` for `j` in `0..64`, correctly rounded (computed to 60 digits).
const TABLE: [u64; 64] = [
    0x3ff0000000000000,
    0x3ff02c9a3e778061,
    0x3ff059b0d3158574,
    0x3ff0874518759bc8,
    0x3ff0b5586cf9890f,
    0x3ff0e3ec32d3d1a2,
    0x3ff11301d0125b51,
    0x3ff1429aaea92de0,
    0x3ff172b83c7d517b,
    0x3ff1a35beb6fcb75,
    0x3ff1d4873168b9aa,
    0x3ff2063b88628cd6,
    0x3ff2387a6e756238,
    0x3ff26b4565e27cdd,
    0x3ff29e9df51fdee1,
    0x3ff2d285a6e4030b,
    0x3ff306fe0a31b715,
    0x3ff33c08b26416ff,
    0x3ff371a7373aa9cb,
    0x3ff3a7db34e59ff7,
    0x3ff3dea64c123422,
    0x3ff4160a21f72e2a,
    0x3ff44e086061892d,
    0x3ff486a2b5c13cd0,
    0x3ff4bfdad5362a27,
    0x3ff4f9b2769d2ca7,
    0x3ff5342b569d4f82,
    0x3ff56f4736b527da,
    0x3ff5ab07dd485429,
    0x3ff5e76f15ad2148,
    0x3ff6247eb03a5585,
    0x3ff6623882552225,
    0x3ff6a09e667f3bcd,
    0x3ff6dfb23c651a2f,
    0x3ff71f75e8ec5f74,
    0x3ff75feb564267c9,
    0x3ff7a11473eb0187,
    0x3ff7e2f336cf4e62,
    0x3ff82589994cce13,
    0x3ff868d99b4492ed,
    0x3ff8ace5422aa0db,
    0x3ff8f1ae99157736,
    0x3ff93737b0cdc5e5,
    0x3ff97d829fde4e50,
    0x3ff9c49182a3f090,
    0x3ffa0c667b5de565,
    0x3ffa5503b23e255d,
    0x3ffa9e6b5579fdbf,
    0x3ffae89f995ad3ad,
    0x3ffb33a2b84f15fb,
    0x3ffb7f76f2fb5e47,
    0x3ffbcc1e904bc1d2,
    0x3ffc199bdd85529c,
    0x3ffc67f12e57d14b,
    0x3ffcb720dcef9069,
    0x3ffd072d4a07897c,
    0x3ffd5818dcfba487,
    0x3ffda9e603db3285,
    0x3ffdfc97337b9b5f,
    0x3ffe502ee78b3ff6,
    0x3ffea4afa2a490da,
    0x3ffefa1bee615a27,
    0x3fff50765b6e4540,
    0x3fffa7c1819e90d8,
];

/// `e^x`, to within 2 ulp of [`f64::exp`] (the same value outside `|x| <= 700` and for NaN).
#[inline]
pub fn exp(x: f64) -> f64 {
    if x.is_nan() || x.abs() > LIMIT {
        return x.exp();
    }
    let t = x * INV_STEP + SHIFT;
    // The low bits of `t` hold `n = round(x * 64 / ln 2)` in two's complement.
    let n = t.to_bits() as i32;
    let nf = t - SHIFT;
    let r = (x - nf * STEP_HI) - nf * STEP_LO;
    // e^r - 1, |r| <= ln 2 / 128, by Estrin's scheme rather than Horner's: the same terms in
    // three dependent steps instead of five, and the update loop that calls this is bound by
    // the length of its chains, not by its count of instructions.
    let r2 = r * r;
    let q = (r + r2 * (0.5 + r * (1.0 / 6.0))) + (r2 * r2) * (1.0 / 24.0 + r * (1.0 / 120.0));
    let t = f64::from_bits(TABLE[(n & 63) as usize]);
    let y = t + t * q;
    // Times 2^m, m = n >> 6 (rounding down), by adding m to the exponent: y lies in [0.99, 2.02)
    // and |m| <= 1011, so the result stays a normal number.
    f64::from_bits((y.to_bits() as i64 + (i64::from(n >> 6) << 52)) as u64)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The distance from `got` to `want` in units of `want`'s last place (also `fastln`'s
    /// measure).
    pub(in crate::search) fn ulps(got: f64, want: f64) -> f64 {
        let ulp = f64::from_bits(want.to_bits() + 1) - want;
        (got - want).abs() / ulp
    }

    #[test]
    fn the_table_holds_the_powers_of_two() {
        for (j, &bits) in TABLE.iter().enumerate() {
            let want = (j as f64 / 64.0).exp2();
            assert!(ulps(f64::from_bits(bits), want) <= 1.0, "2^({j}/64)");
        }
        assert_eq!(f64::from_bits(TABLE[0]), 1.0);
    }

    #[test]
    fn exp_is_within_two_ulp_of_the_librarys() {
        // A dense grid over the Gibbs range (x <= 0, down to -1/tau) and beyond, both signs,
        // and the points where the table index wraps.
        let mut worst = 0.0f64;
        let mut check = |x: f64| {
            let e = ulps(exp(x), x.exp());
            assert!(
                e <= 2.0,
                "exp({x}) = {} against {}: {e} ulp",
                exp(x),
                x.exp()
            );
            worst = worst.max(e);
        };
        for i in -2_000_000..=2_000_000 {
            check(f64::from(i) * 1e-6);
        }
        for i in -70_000..=70_000 {
            check(f64::from(i) * 0.01);
        }
        for n in -64 * 1000..64 * 1000 {
            let x = f64::from(n) * std::f64::consts::LN_2 / 64.0;
            if x.abs() <= LIMIT {
                check(x);
                check(x + 1e-9);
                check(x - 1e-9);
            }
        }
        // Most of the grid is exact or one ulp off; the bound is not slack everywhere.
        assert!(worst >= 0.5, "worst {worst}");
    }

    #[test]
    fn exp_beyond_the_limit_is_the_librarys() {
        for x in [
            -1e300,
            -800.0,
            -700.5,
            700.5,
            709.0,
            710.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(exp(x).to_bits(), x.exp().to_bits(), "{x}");
        }
        assert!(exp(f64::NAN).is_nan());
        assert_eq!(exp(0.0), 1.0);
    }
}
