"""The simulate page's comparison, read from the SVG the page draws.

One comparison (two variants, whole matches, the same seeds) is run through the page
as a person runs it; the test then reads the charts' structure: every measure of the
difference on its own axis with its own unit, the two variants' histograms on the
same bins with each tick label under its bin, and no chart text smaller than the
page's body text, on a desktop and on a phone.
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")

READ = """() => {
  const body = parseFloat(getComputedStyle(document.body).fontSize);
  const px = (t) => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a;
  const texts = [...document.querySelectorAll('svg.chart text')].map((t) => ({ s: t.textContent, px: px(t) }));
  const diff = document.querySelector('svg.chart.difference');
  const measures = [...diff.querySelectorAll('g.measure')].map((g) => {
    const axes = g.querySelectorAll(':scope > g.axis');
    const axis = axes[0];
    const line = axis.querySelector('line.axis-line').getBoundingClientRect();
    const zero = axis.querySelector('line.zero').getBoundingClientRect().left;
    const ends = [...g.querySelectorAll('line.whisker')].map((l) => l.getBoundingClientRect())
      .flatMap((r) => [r.left, r.right]);
    return { key: g.dataset.measure, unit: g.dataset.unit, span: Number(g.dataset.span), axes: axes.length,
             ticks: [...axis.querySelectorAll('text.chart-tick')].map((t) => ({ s: t.textContent, v: Number(t.dataset.value) })),
             half: line.width / 2, reach: Math.max(0, ...ends.map((x) => Math.abs(x - zero))) };
  });
  const hists = [...document.querySelectorAll('.charts.shared svg.chart.histogram')].map((svg) => {
    const base = svg.querySelector('g.axis line.axis-line').getBoundingClientRect().bottom;
    const bins = [...svg.querySelectorAll('g.bin')].map((g) => {
      const bars = [...g.querySelectorAll('rect.bar')];
      const tick = g.querySelector('text.chart-tick');
      const tr = tick ? tick.getBoundingClientRect() : null;
      const x0 = Math.min(...bars.map((b) => b.getBoundingClientRect().left));
      const x1 = Math.max(...bars.map((b) => b.getBoundingClientRect().right));
      return { bin: g.dataset.bin, series: bars.map((b) => b.dataset.series),
               tick: tr && { s: tick.textContent, mid: (tr.left + tr.right) / 2, top: tr.top }, x0, x1 };
    });
    return { title: svg.getAttribute('aria-label'), bins, base, labels: svg.dataset.bins,
             legend: [...svg.querySelectorAll('text.legend')].map((t) => t.textContent) };
  });
  return { body, texts, measures, hists };
}"""


def run_comparison(page, served) -> None:
    page.goto(served.url)
    page.wait_for_selector("#start")
    page.click('nav a[data-view="simulate"]')
    page.select_option("#sim-variant", "all-fives")
    page.select_option("#sim-compare", "sniff")
    page.select_option("#sim-mode", "games")
    page.fill("#sim-hands", "12")
    page.fill("#sim-bots", "greedy,random")
    page.click("#sim-run")
    page.wait_for_selector("svg.chart.difference", timeout=90_000)


def check(read: dict) -> None:
    # no chart text smaller than the body's
    small = [t for t in read["texts"] if t["px"] < read["body"] - 0.01]
    assert not small, (read["body"], small[:5])
    # each measure of the difference: its own axis, its own unit, its own scale
    measures = {m["key"]: m for m in read["measures"]}
    assert {"moves_per_hand", "hands_per_game", "leader_win_rate", "blocked_share"} <= set(measures), measures
    assert measures["moves_per_hand"]["unit"] == "moves" and measures["leader_win_rate"]["unit"] == "pp"
    for m in read["measures"]:
        assert m["axes"] == 1, m
        values = [t["v"] for t in m["ticks"]]
        assert values == [-m["span"], 0, m["span"]], m
        assert all(m["unit"] in t["s"] for t in m["ticks"] if t["v"]), m  # the unit at its ticks
        # the axis is scaled to this measure: its interval reaches at least 40% of the way out
        if m["reach"] > 0:
            assert m["reach"] >= 0.4 * m["half"] - 1, m
    # the histograms: both variants in every bin, one x axis, the label under its bars
    assert len(read["hists"]) == 3, [h["title"] for h in read["hists"]]
    for hist in read["hists"]:
        assert hist["legend"] == ["all-fives", "sniff"], hist["legend"]
        assert [b["bin"] for b in hist["bins"]] == hist["labels"].split(" ")
        labelled = 0
        for b in hist["bins"]:
            assert b["series"] == ["0", "1"], (hist["title"], b)
            if b["tick"]:
                labelled += 1
                assert b["tick"]["s"] == b["bin"]
                assert b["x0"] - 1 <= b["tick"]["mid"] <= b["x1"] + 1, (hist["title"], b)
                assert b["tick"]["top"] >= hist["base"] - 1, (hist["title"], b)
        assert labelled >= min(3, len(hist["bins"])), hist


def test_the_comparison_charts_each_measure_on_its_own_axis(page, served) -> None:
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(served.base) else None)
    run_comparison(page, served)
    check(page.evaluate(READ))
    # the same page on a phone
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(100)
    check(page.evaluate(READ))
    assert not outside, outside  # nothing from the network but the server itself
