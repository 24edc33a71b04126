//! `ln x` without a call into the C library, for UCB1 playouts ([`crate::search::nast`]): a
//! UCB1 step takes the logarithm of its candidates' summed counts, and that call sat on the
//! chain from one move of the playout to the next. Within 2 units in the last place of
//! [`f64::ln`] for `x >= 2` (tested below); below 2, and for anything not finite, it is
//! `f64::ln` itself (so `ln 1` is exactly 0, never a rounding error's negative).
//!
//! The tree walk has a logarithm of its own (`walk::ln`, a `const` series accurate to 1e-9 that
//! fills its compile-time table of small counts); this one stays within 2 ulp of the library's
//! so that UCB1 playouts compute what they computed with the library's (the same root statistics
//! in every bench search, `docs/performance.md`), and it has no division on its chain.
//!
//! The method is the textbook table one: `x = 2^e * m` with `m` in `[1, 2)`; the top seven
//! bits of `m`'s fraction pick `c`, the middle of one of 128 intervals, whose stored
//! reciprocal `1/c` (rounded) and `-ln(1/c)` (correctly rounded, for the reciprocal as
//! stored) give `ln x = e ln 2 - ln(1/c) + ln(1 + r)` with `r = m / c - 1`, `|r| < 1/256`,
//! and `ln(1 + r)` from a degree-6 polynomial (truncation below 3e-18).

/// `ln 2` in two parts (Cody and Waite): the high part has its low 21 bits zero, so its
/// product with any exponent of an `f64` is exact.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

/// For `j` in `0..128`, with `c = 1 + (j + 1/2) / 128`: `1/c` rounded to the nearest `f64`,
/// and `-ln` of that stored value, correctly rounded (both computed to 50 digits).
const TABLE: [(u64, u64); 128] = [
    (0x3fefe01fe01fe020, 0x3f6ff00aa2b10ba0),
    (0x3fefa11caa01fa12, 0x3f87dc475f810a69),
    (0x3fef6310aca0dbb5, 0x3f93cea44346a584),
    (0x3fef25f644230ab5, 0x3f9b9fc027af919a),
    (0x3feee9c7f8458e02, 0x3fa1b0d98923d97f),
    (0x3feeae807aba01eb, 0x3fa58a5bafc8e4d3),
    (0x3fee741aa59750e4, 0x3fa95c830ec8e3f2),
    (0x3fee3a9179dc1a73, 0x3fad276b8adb0b56),
    (0x3fee01e01e01e01e, 0x3fb075983598e471),
    (0x3fedca01dca01dca, 0x3fb253f62f0a1417),
    (0x3fed92f2231e7f8a, 0x3fb42edcbea646ee),
    (0x3fed5cac807572b2, 0x3fb60658a93750c4),
    (0x3fed272ca3fc5b1a, 0x3fb7da766d7b12d0),
    (0x3fecf26e5c44bfc6, 0x3fb9ab42462033ae),
    (0x3fecbe6d9601cbe7, 0x3fbb78c82bb0eda0),
    (0x3fec8b265afb8a42, 0x3fbd4313d66cb35d),
    (0x3fec5894d10d4986, 0x3fbf0a30c01162a4),
    (0x3fec26b5392ea01c, 0x3fc0671512ca596f),
    (0x3febf583ee868d8b, 0x3fc14785846742ac),
    (0x3febc4fd65883e7b, 0x3fc2266f190a5acd),
    (0x3feb951e2b18ff23, 0x3fc303d718e47fd5),
    (0x3feb65e2e3beee05, 0x3fc3dfc2b0ecc62a),
    (0x3feb37484ad806ce, 0x3fc4ba36f39a55e5),
    (0x3feb094b31d922a4, 0x3fc59338d9982085),
    (0x3feadbe87f94905e, 0x3fc66acd4272ad51),
    (0x3feaaf1d2f87ebfd, 0x3fc740f8f54037a3),
    (0x3fea82e65130e159, 0x3fc815c0a14357e9),
    (0x3fea574107688a4a, 0x3fc8e928de886d41),
    (0x3fea2c2a87c51ca0, 0x3fc9bb362e7dfb85),
    (0x3fea01a01a01a01a, 0x3fca8becfc882f19),
    (0x3fe9d79f176b682d, 0x3fcb5b519e8fb5a6),
    (0x3fe9ae24ea5510da, 0x3fcc2968558c18c2),
    (0x3fe9852f0d8ec0ff, 0x3fccf6354e09c5dd),
    (0x3fe95cbb0be377ae, 0x3fcdc1bca0abec7b),
    (0x3fe934c67f9b2ce6, 0x3fce8c0252aa5a60),
    (0x3fe90d4f120190d5, 0x3fcf550a564b7b37),
    (0x3fe8e6527af1373f, 0x3fd00e6c45ad501d),
    (0x3fe8bfce8062ff3a, 0x3fd071b85fcd590d),
    (0x3fe899c0f601899c, 0x3fd0d46b579ab74b),
    (0x3fe87427bcc092b9, 0x3fd136870293a8b0),
    (0x3fe84f00c2780614, 0x3fd1980d2dd4236f),
    (0x3fe82a4a0182a4a0, 0x3fd1f8ff9e48a2f3),
    (0x3fe8060180601806, 0x3fd2596010df763a),
    (0x3fe7e225515a4f1d, 0x3fd2b9303ab89d25),
    (0x3fe7beb3922e017c, 0x3fd31871c9544185),
    (0x3fe79baa6bb6398b, 0x3fd3772662bfd85c),
    (0x3fe77908119ac60d, 0x3fd3d54fa5c1f710),
    (0x3fe756cac201756d, 0x3fd432ef2a04e813),
    (0x3fe734f0c541fe8d, 0x3fd49006804009d0),
    (0x3fe713786d9c7c09, 0x3fd4ec9732600269),
    (0x3fe6f26016f26017, 0x3fd548a2c3add263),
    (0x3fe6d1a62681c861, 0x3fd5a42ab0f4cfe2),
    (0x3fe6b1490aa31a3d, 0x3fd5ff3070a793d4),
    (0x3fe691473a88d0c0, 0x3fd659b57303e1f2),
    (0x3fe6719f3601671a, 0x3fd6b3bb2235943d),
    (0x3fe6524f853b4aa3, 0x3fd70d42e2789236),
    (0x3fe63356b88ac0de, 0x3fd7664e1239dbcf),
    (0x3fe614b36831ae94, 0x3fd7bede0a37afbf),
    (0x3fe5f66434292dfc, 0x3fd816f41da0d495),
    (0x3fe5d867c3ece2a5, 0x3fd86e919a330ba1),
    (0x3fe5babcc647fa91, 0x3fd8c5b7c858b48b),
    (0x3fe59d61f123ccaa, 0x3fd91c67eb45a83e),
    (0x3fe5805601580560, 0x3fd972a341135159),
    (0x3fe56397ba7c52e2, 0x3fd9c86b02dc0862),
    (0x3fe54725e6bb82fe, 0x3fda1dc064d5b995),
    (0x3fe52aff56a8054b, 0x3fda72a4966bd9e9),
    (0x3fe50f22e111c4c5, 0x3fdac718c258b0e5),
    (0x3fe4f38f62dd4c9b, 0x3fdb1b1e0ebdfc5a),
    (0x3fe4d843bedc2c4c, 0x3fdb6eb59d3cf35c),
    (0x3fe4bd3edda68fe1, 0x3fdbc1e08b0dad0a),
    (0x3fe4a27fad76014a, 0x3fdc149ff115f027),
    (0x3fe4880522014880, 0x3fdc66f4e3ff6ff9),
    (0x3fe46dce34596066, 0x3fdcb8e0744d7aca),
    (0x3fe453d9e2c776ca, 0x3fdd0a63ae721e64),
    (0x3fe43a2730abee4d, 0x3fdd5b7f9ae2c684),
    (0x3fe420b5265e5951, 0x3fddac353e2c5955),
    (0x3fe40782d10e6566, 0x3fddfc859906d5b5),
    (0x3fe3ee8f42a5af07, 0x3fde4c71a8687704),
    (0x3fe3d5d991aa75c6, 0x3fde9bfa659861f5),
    (0x3fe3bd60d9232955, 0x3fdeeb20c640ddf3),
    (0x3fe3a524387ac822, 0x3fdf39e5bc811e5d),
    (0x3fe38d22d366088e, 0x3fdf884a36fe9ec1),
    (0x3fe3755bd1c945ee, 0x3fdfd64f20f61571),
    (0x3fe35dce5f9f2af8, 0x3fe011fab125ff8a),
    (0x3fe34679ace01346, 0x3fe0389eefce633c),
    (0x3fe32f5ced6a1dfa, 0x3fe05f14bd26459c),
    (0x3fe3187758e9ebb6, 0x3fe0855c884b450e),
    (0x3fe301c82ac40260, 0x3fe0ab76bece14d2),
    (0x3fe2eb4ea1fed14b, 0x3fe0d163ccb9d6b8),
    (0x3fe2d50a012d50a0, 0x3fe0f7241c9b497d),
    (0x3fe2bef98e5a3711, 0x3fe11cb81787ccf8),
    (0x3fe2a91c92f3c105, 0x3fe1422025243d45),
    (0x3fe293725bb804a5, 0x3fe1675cababa60e),
    (0x3fe27dfa38a1ce4d, 0x3fe18c6e0ff5cf07),
    (0x3fe268b37cd60127, 0x3fe1b154b57da29e),
    (0x3fe2539d7e9177b2, 0x3fe1d610fe677003),
    (0x3fe23eb79717605b, 0x3fe1faa34b87094c),
    (0x3fe22a0122a0122a, 0x3fe21f0bfc65beec),
    (0x3fe21579804855e6, 0x3fe2434b6f483934),
    (0x3fe2012012012012, 0x3fe26762013430e0),
    (0x3fe1ecf43c7fb84c, 0x3fe28b500df60783),
    (0x3fe1d8f5672e4abd, 0x3fe2af15f02640ac),
    (0x3fe1c522fc1ce059, 0x3fe2d2b4012edc9d),
    (0x3fe1b17c67f2bae3, 0x3fe2f62a99509546),
    (0x3fe19e0119e0119e, 0x3fe3197a0fa7fe6a),
    (0x3fe18ab083902bdb, 0x3fe33ca2ba328994),
    (0x3fe1778a191bd684, 0x3fe35fa4edd36ea0),
    (0x3fe1648d50fc3201, 0x3fe38280fe58797f),
    (0x3fe151b9a3fdd5c9, 0x3fe3a5373e7ebdf9),
    (0x3fe13f0e8d344724, 0x3fe3c7c7fff73206),
    (0x3fe12c8b89edc0ac, 0x3fe3ea33936b2f5b),
    (0x3fe11a3019a74826, 0x3fe40c7a4880dcea),
    (0x3fe107fbbe011080, 0x3fe42e9c6ddf80bf),
    (0x3fe0f5edfab325a2, 0x3fe4509a5133bb0a),
    (0x3fe0e40655826011, 0x3fe472743f33aaad),
    (0x3fe0d24456359e3a, 0x3fe4942a83a2fc07),
    (0x3fe0c0a7868b4171, 0x3fe4b5bd6956e273),
    (0x3fe0af2f722eecb5, 0x3fe4d72d3a39fd01),
    (0x3fe09ddba6af8360, 0x3fe4f87a3f5026e9),
    (0x3fe08cabb37565e2, 0x3fe519a4c0ba3446),
    (0x3fe07b9f29b8eae2, 0x3fe53aad05b99b7c),
    (0x3fe06ab59c7912fb, 0x3fe55b9354b40bce),
    (0x3fe059eea0727586, 0x3fe57c57f336f191),
    (0x3fe04949cc1664c5, 0x3fe59cfb25fae87f),
    (0x3fe038c6b78247fc, 0x3fe5bd7d30e71c73),
    (0x3fe02864fc7729e9, 0x3fe5ddde57149923),
    (0x3fe0182436517a37, 0x3fe5fe1edad18919),
    (0x3fe0080402010080, 0x3fe61e3efda46467),
];

/// `ln x`, to within 2 ulp of [`f64::ln`] for `x >= 2` (the same value below 2 and for
/// anything not finite).
#[inline]
pub fn ln(x: f64) -> f64 {
    if !(2.0..=f64::MAX).contains(&x) {
        return x.ln();
    }
    let bits = x.to_bits();
    let e = f64::from((bits >> 52) as i32 - 1023);
    let (inv_c, neg_ln_inv_c) = TABLE[(bits >> 45 & 127) as usize];
    let m = f64::from_bits(bits & ((1 << 52) - 1) | 1.0f64.to_bits());
    // m / c is within 1/256 of 1, so subtracting 1 is exact.
    let r = m * f64::from_bits(inv_c) - 1.0;
    // ln(1 + r) by Estrin's scheme, three dependent steps: the caller's step waits on it.
    let r2 = r * r;
    let p =
        (r + r2 * (-0.5 + r * (1.0 / 3.0))) + (r2 * r2) * ((-0.25 + r * 0.2) + r2 * (-1.0 / 6.0));
    (e * LN2_HI + f64::from_bits(neg_ln_inv_c)) + (p + e * LN2_LO)
}

#[cfg(test)]
mod tests {
    use super::super::fastexp::tests::ulps;
    use super::*;

    #[test]
    fn the_table_holds_reciprocals_and_their_logarithms() {
        for (j, &(inv_c, neg_ln)) in TABLE.iter().enumerate() {
            let c = 1.0 + (j as f64 + 0.5) / 128.0;
            let inv_c = f64::from_bits(inv_c);
            assert!(ulps(inv_c, 1.0 / c) <= 0.5, "1/c at {j}");
            assert!(
                ulps(f64::from_bits(neg_ln), -inv_c.ln()) <= 1.0,
                "-ln(1/c) at {j}"
            );
        }
    }

    #[test]
    fn ln_is_within_two_ulp_of_the_librarys() {
        // Every integer up to 2^22 (the playouts take the log of a sum of counts), the
        // boundaries of every table interval and of every binade, and a spread of large values.
        let mut worst = 0.0f64;
        let mut check = |x: f64| {
            let e = ulps(ln(x), x.ln());
            assert!(e <= 2.0, "ln({x}) = {} against {}: {e} ulp", ln(x), x.ln());
            worst = worst.max(e);
        };
        for n in 2..=(1u32 << 22) {
            check(f64::from(n));
        }
        for binade in -1..1000 {
            for j in 0..=128 {
                let x = (1.0 + f64::from(j) / 128.0) * 2f64.powi(binade);
                for y in [x, x * (1.0 + 1e-15), x * (1.0 - 1e-15)] {
                    if y >= 2.0 {
                        check(y);
                    }
                }
            }
        }
        let mut x = 2.0f64;
        while x < 1e300 {
            check(x);
            x *= 1.000_7;
        }
        // Most points are exact or one ulp off; the bound is not slack everywhere.
        assert!(worst >= 0.5, "worst {worst}");
    }

    #[test]
    fn ln_below_two_and_beyond_the_finite_is_the_librarys() {
        for x in [1.0, 1.5, 1.999_999, 0.5, 0.0, -1.0, f64::INFINITY] {
            assert_eq!(ln(x).to_bits(), x.ln().to_bits(), "{x}");
        }
        assert!(ln(f64::NAN).is_nan());
        assert_eq!(ln(1.0), 0.0);
    }
}
