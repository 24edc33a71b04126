//! SVG plots of scaling runs, strength curves and tournament ratings (plotters' SVG backend: no
//! system libraries needed).

use std::path::Path;

use plotters::prelude::*;

use super::ratings::Rating;
use super::scaling::ScaleRow;
use super::stats::Signed;

const COLORS: [RGBColor; 5] = [BLUE, RED, GREEN, MAGENTA, CYAN];

/// Draws speedup against threads (with the ideal line) and, when measured, the score against the
/// one-thread searcher at equal time and at equal iterations, with 95% intervals.
pub fn scaling_svg(rows: &[ScaleRow], title: &str, path: &Path) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (1200, 450)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(title, ("sans-serif", 20))
        .map_err(|e| err(&e))?;
    let panels = root.split_evenly((1, 3));
    let max_threads = rows.iter().map(|r| r.threads).max().unwrap_or(1) as f64;
    let mut modes: Vec<&str> = rows.iter().map(|r| r.mode.as_str()).collect();
    modes.dedup();

    // Speedup.
    let max_speedup = rows.iter().map(|r| r.speedup).fold(max_threads, f64::max);
    let mut chart = ChartBuilder::on(&panels[0])
        .caption("iterations/s speedup vs 1 thread", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(45)
        .build_cartesian_2d(0.5..max_threads + 0.5, 0.0..max_speedup * 1.1)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("threads")
        .y_desc("speedup")
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(
            [(1.0, 1.0), (max_threads, max_threads)],
            BLACK.mix(0.4),
        ))
        .map_err(|e| err(&e))?
        .label("ideal")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 15, y)], BLACK.mix(0.4)));
    for (i, mode) in modes.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.mode == *mode)
            .map(|r| (r.threads as f64, r.speedup))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(*mode)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 15, y)], color.stroke_width(2)));
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| err(&e))?;

    // Strength panels.
    for (panel, equal_time) in [(&panels[1], true), (&panels[2], false)] {
        let caption = if equal_time {
            "score vs 1 thread, equal time"
        } else {
            "score vs 1 thread, equal iterations"
        };
        let mut chart = ChartBuilder::on(panel)
            .caption(caption, ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(45)
            .build_cartesian_2d(0.5..max_threads + 0.5, 0.0..1.0)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("threads")
            .y_desc("mean score (0.5 = even)")
            .draw()
            .map_err(|e| err(&e))?;
        chart
            .draw_series(LineSeries::new(
                [(0.5, 0.5), (max_threads + 0.5, 0.5)],
                BLACK.mix(0.3),
            ))
            .map_err(|e| err(&e))?;
        for (i, mode) in modes.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let pts: Vec<(f64, f64, f64)> = rows
                .iter()
                .filter(|r| r.mode == *mode)
                .filter_map(|r| {
                    let (s, c) = if equal_time {
                        (r.score_equal_time?, r.ci_equal_time?)
                    } else {
                        (r.score_equal_iterations?, r.ci_equal_iterations?)
                    };
                    // Offset modes slightly so their interval bars do not overlap.
                    Some((r.threads as f64 + 0.06 * i as f64, s, c))
                })
                .collect();
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|p| (p.0, p.1)),
                    color.stroke_width(2),
                ))
                .map_err(|e| err(&e))?;
            chart
                .draw_series(pts.iter().map(|&(x, s, c)| {
                    ErrorBar::new_vertical(x, s - c, s, s + c, color.filled(), 8)
                }))
                .map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))
}

/// Draws each agent's rating with its 95% interval as an error bar, strongest first.
pub fn ratings_svg(ratings: &[Rating], title: &str, path: &Path) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let mut sorted: Vec<&Rating> = ratings.iter().collect();
    sorted.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    let lo = sorted.iter().map(|r| r.low).fold(0.0, f64::min);
    let hi = sorted.iter().map(|r| r.high).fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.1).max(10.0);
    let n = sorted.len();
    let width = (160 + 110 * n as u32).max(500);
    let root = SVGBackend::new(path, (width, 450)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(15)
        .x_label_area_size(60)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.5..n as f64 - 0.5, lo - pad..hi + pad)
        .map_err(|e| err(&e))?;
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
            // Full specs list every option; their start tells agents apart on a plot.
            let name = &sorted[i as usize].agent;
            match name.char_indices().nth(24) {
                Some((cut, _)) => format!("{}…", &name[..cut]),
                None => name.clone(),
            }
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(2 * n + 1)
        .x_label_formatter(&label)
        .y_desc("Elo")
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(
            [(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
            BLACK.mix(0.3),
        ))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(sorted.iter().enumerate().map(|(i, r)| {
            ErrorBar::new_vertical(i as f64, r.low, r.elo, r.high, BLUE.filled(), 12)
        }))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(
            sorted
                .iter()
                .enumerate()
                .map(|(i, r)| Circle::new((i as f64, r.elo), 4, BLUE.filled())),
        )
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// A chart of a curve's panel: log₂ of the budget across, a value up.
type CurveChart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// One panel of a strength curve: error bars `(log₂ budget, value, half-width)`.
struct BarsPanel<'c> {
    caption: String,
    y_desc: &'c str,
    /// The y range shown at least; the bars widen it.
    least: (f64, f64),
    /// Room above and below the bars.
    pad: f64,
    color: RGBColor,
    /// A faint line at 0.
    zero_line: bool,
}

impl BarsPanel<'_> {
    /// Draws the axes (the budget across `x_range`, described by `x_desc`) and `bars`; the
    /// chart comes back for what the panel adds.
    fn draw<'a, 'b>(
        &self,
        area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
        (x_desc, x_range): (&str, (f64, f64)),
        bars: &[(f64, f64, f64)],
    ) -> Result<CurveChart<'a, 'b>, String> {
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", self.caption);
        let (y0, y1) = bars.iter().fold(self.least, |(a, b), &(_, y, h)| {
            (a.min(y - h), b.max(y + h))
        });
        let mut chart = ChartBuilder::on(area)
            .caption(&self.caption, ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(50)
            .build_cartesian_2d(x_range.0..x_range.1, (y0 - self.pad)..(y1 + self.pad))
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(self.y_desc)
            .x_label_formatter(&|x: &f64| format!("{:.0}", 2f64.powf(*x)))
            .draw()
            .map_err(|e| err(&e))?;
        if self.zero_line {
            chart
                .draw_series(LineSeries::new(
                    [(x_range.0, 0.0), (x_range.1, 0.0)],
                    BLACK.mix(0.3),
                ))
                .map_err(|e| err(&e))?;
        }
        let color = self.color;
        chart
            .draw_series(
                bars.iter().map(|&(x, y, h)| {
                    ErrorBar::new_vertical(x, y - h, y, y + h, color.filled(), 8)
                }),
            )
            .map_err(|e| err(&e))?;
        Ok(chart)
    }
}

/// Draws a strength curve: Elo against the reference over log₂ of the budget, with 95% bars and
/// the fitted slope; the Elo gained by each doubling (against half the budget), with the mean
/// gain; and, where the games have points, the points per game the agent takes over the
/// reference (A − B), with 95% bars: Sueca's and Hearts's progress shows there when wins
/// barely move.
pub fn curve_svg(curve: &super::curve::Curve, title: &str, path: &Path) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let xs: Vec<f64> = curve
        .points
        .iter()
        .map(|p| (p.rung.amount() as f64).log2())
        .collect();
    let margins: Vec<(f64, f64, f64)> = curve
        .points
        .iter()
        .zip(&xs)
        .filter_map(|(p, &x)| {
            let r = &p.vs_reference;
            Some((x, r.points_margin, r.points_margin_half_width()?))
        })
        .collect();
    let panel_count = if margins.is_empty() { 2 } else { 3 };
    let root = SVGBackend::new(path, (550 * panel_count as u32, 450)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(title, ("sans-serif", 20))
        .map_err(|e| err(&e))?;
    let panels = root.split_evenly((1, panel_count));
    let unit = match curve.points.first().map(|p| p.rung) {
        Some(super::curve::Rung::Millis(_)) => "ms per move",
        _ => "iterations per move",
    };
    let (x0, x1) = xs
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let (x0, x1) = if x0 > x1 {
        (0.0, 1.0)
    } else {
        (x0 - 0.5, x1 + 0.5)
    };
    let axis = (unit, (x0, x1));
    // Elo against the reference.
    let bars: Vec<(f64, f64, f64)> = curve
        .points
        .iter()
        .zip(&xs)
        .map(|(p, &x)| (x, p.vs_reference.elo, p.vs_reference.elo_half_width()))
        .collect();
    let mut chart = BarsPanel {
        caption: format!("Elo vs {}", curve.reference),
        y_desc: "Elo",
        least: (-50.0, 50.0),
        pad: 20.0,
        color: BLUE,
        zero_line: false,
    }
    .draw(&panels[0], axis, &bars)
    .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(bars.iter().map(|b| (b.0, b.1)), BLUE))
        .map_err(|e| err(&e))?;
    if let Some(g) = curve.slope_vs_reference {
        // The fitted line through the weighted centre of the points.
        let w: Vec<f64> = curve
            .points
            .iter()
            .map(|p| 1.0 / p.vs_reference.elo_se.max(1e-9).powi(2))
            .collect();
        let sw: f64 = w.iter().sum();
        let mx = xs.iter().zip(&w).map(|(x, w)| x * w).sum::<f64>() / sw;
        let my = bars.iter().zip(&w).map(|(b, w)| b.1 * w).sum::<f64>() / sw;
        let line = [x0, x1].map(|x| (x, my + g.elo_per_doubling * (x - mx)));
        chart
            .draw_series(LineSeries::new(line, RED.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(format!(
                "{} Elo per doubling",
                Signed(g.elo_per_doubling, 1)
            ))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 15, y)], RED.stroke_width(2)));
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| err(&e))?;
    }
    // Gain per doubling.
    let gains: Vec<(f64, f64, f64)> = curve
        .points
        .iter()
        .zip(&xs)
        .filter_map(|(p, &x)| p.vs_half.as_ref().map(|h| (x, h.elo, h.elo_half_width())))
        .collect();
    let mut chart = BarsPanel {
        caption: "Elo gained by each doubling (vs half the budget)".into(),
        y_desc: "Elo per doubling",
        least: (-40.0, 40.0),
        pad: 10.0,
        color: GREEN,
        zero_line: true,
    }
    .draw(&panels[1], axis, &gains)
    .map_err(|e| err(&e))?;
    if let Some(g) = curve.mean_vs_half {
        chart
            .draw_series(LineSeries::new(
                [(x0, g.elo_per_doubling), (x1, g.elo_per_doubling)],
                RED.stroke_width(2),
            ))
            .map_err(|e| err(&e))?;
    }
    if let Some(area) = panels.get(2) {
        let mut chart = BarsPanel {
            caption: format!("points per game over {} (A − B)", curve.reference),
            y_desc: "points per game",
            least: (0.0, 0.0),
            pad: 1.0,
            color: MAGENTA,
            zero_line: true,
        }
        .draw(area, axis, &margins)
        .map_err(|e| err(&e))?;
        chart
            .draw_series(LineSeries::new(margins.iter().map(|b| (b.0, b.1)), MAGENTA))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}
