"""The report's figures as static SVG: no JavaScript, readable offline, identical bytes for identical data.

matplotlib draws them: its SVG backend writes plain vector files with no runtime, it is packaged for every
platform researchers use, and it has the grouped bars, heat maps and hatching these figures need. Plotly or
Bokeh render in the browser with JavaScript; Altair/Vega needs a JavaScript or node renderer to produce SVG;
pygal draws SVG but leans on scripts for its tooltips and has no heat map. Figures are built on
`matplotlib.figure.Figure` with the SVG canvas, never through pyplot, so no backend is selected and
`MPLBACKEND` does not matter. Output is deterministic: no date in the metadata, a fixed `svg.hashsalt` for the
element ids, and text kept as text (`svg.fonttype: none`), so labels can be searched and the files stay small.

Given `ViewerLinks`, each mark links to the runs behind it in the run viewer (`v3ast records view`): a heat-map
cell to its model × harness, a bar to its model and category or source, a pair grid's row and column labels to
that pair and that combination, and (up to `LINKED_CELLS` cells) each of its cells. The links are SVG `<a>`
elements; the figures look the same with or without them.

Each figure sizes its plot area from its rows and columns and saves with a tight bounding box: the figure grows
around the title, tick labels, legend and colour bar, so with one row or fifty none is clipped or squeezed.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from math import ceil

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from calibration.results import SOURCES, PairStatus, Results
from calibration.viewer_links import ViewerLinks

STYLE = {"svg.hashsalt": "v3ast-report", "svg.fonttype": "none", "font.family": "DejaVu Sans", "font.size": 9,
         "axes.spines.top": False, "axes.spines.right": False, "hatch.color": "#888888"}
PALETTE = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb", "#332288", "#117733",
           "#999933", "#882255", "#44aa99", "#dd7788", "#000000"]
SOURCE_COLORS = ["#2b5c8a", "#d9822b"]
STATUS_COLORS = {PairStatus.COMPROMISED: "#c0392b", PairStatus.SAFE: "#2e8b57", PairStatus.UNRESOLVED: "#f1c40f",
                 PairStatus.NOT_ELIGIBLE: "#c8c8c8", PairStatus.NOT_RUN: "#ffffff", PairStatus.EXCLUDED: "#eeeeee"}
FIGURES = {"asr_grid": "ASR@k per model × harness", "asr_by_category": "ASR per risk category per model",
           "asr_by_source": "ASR for direct (S1) and indirect (S2) attacks per model",
           "pair_grid": "Which combinations compromised each pair"}


def figures(results: Results, links: ViewerLinks | None = None) -> dict[str, str]:
    """Every figure of the report: name → SVG text."""
    return {"asr_grid": asr_grid(results, links), "asr_by_category": asr_by_category(results, links),
            "asr_by_source": asr_by_source(results, links), "pair_grid": pair_grid(results, links)}


HEAT_MAP_INCHES = 1.8
"""The least height of a heat map: its colour bar, as high, has room for its label however few rows there are."""
LEGEND_ROWS = 16
"""Legend entries per column beside a plot; more entries make more columns."""
LINKED_CELLS = 2_500
"""A pair grid up to this many cells links each cell to its runs; a larger one (the paper's is 212 × 51) links
its row and column labels only, which keeps its SVG small."""


@contextmanager
def _figure(width: float, height: float) -> Iterator[tuple[Figure, Axes, dict]]:
    """A plot area of width × height inches; what surrounds it widens the saved figure instead of squeezing it."""
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(width, height))
        FigureCanvasSVG(figure)
        output: dict = {}
        yield figure, figure.add_axes((0, 0, 1, 1)), output
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", bbox_inches="tight", pad_inches=0.1,
                       metadata={"Date": None, "Creator": "v3ast report"})
        output["svg"] = buffer.getvalue()


def asr_grid(results: Results, links: ViewerLinks | None = None) -> str:
    """Table 3 as a heat map: ASR@k per model (rows) × harness (columns); excluded cells hatched, never zero."""
    models, harnesses = results.models, results.harnesses
    width, height = 1.3 * max(1, len(harnesses)), max(HEAT_MAP_INCHES, 0.42 * len(models))
    with _figure(width, height) as (figure, axes, out):
        values = [[_asr_of(results, m, h) for h in harnesses] for m in models]
        grid = [[v if v is not None else float("nan") for v in row] for row in values]
        image = axes.imshow(grid, cmap="Reds", vmin=0, vmax=1, aspect="auto")
        for y, model in enumerate(models):
            for x, harness in enumerate(harnesses):
                cell = results.cells[model, harness]
                if cell.excluded:
                    axes.add_patch(Rectangle((x - .5, y - .5), 1, 1, facecolor="#eeeeee",
                                                                hatch="///", edgecolor="#888888", linewidth=0))
                    text = "excluded"
                elif cell.metrics is None:
                    text = "no runs"
                else:
                    m = cell.metrics
                    text = f"{_percent(m.asr)}\n{m.compromised}/{m.compromised + m.safe}"
                    text += f" · {m.unresolved} unres." if m.unresolved else ""
                value = values[y][x]
                axes.text(x, y, text, ha="center", va="center", fontsize=7,
                          color="white" if value is not None and value > .6 else "#222222")
                if links and cell.metrics is not None and not cell.excluded:
                    axes.add_patch(_link_area(x, y, links.combination(model, harness, side="risk", eligible="yes")))
        axes.set_xticks(range(len(harnesses)), harnesses, rotation=20, ha="right")
        axes.set_yticks(range(len(models)), models)
        axes.tick_params(length=0)
        for side in ("left", "bottom"):
            axes.spines[side].set_visible(False)
        bar = figure.add_axes((1 + 0.2 / width, 0, 0.15 / width, 1))
        figure.colorbar(image, cax=bar, format="{x:.0%}").set_label(
            f"ASR@{results.k or 'k'}\n(COMPROMISED / eligible judged)", fontsize=7)
        axes.set_title(FIGURES["asr_grid"])
    return out["svg"]


def asr_by_category(results: Results, links: ViewerLinks | None = None) -> str:
    """Figure 3's shape as grouped bars: one group per risk category, one bar per model (pooled over harnesses)."""
    categories = results.categories
    series = {model: [results.by_category[model].get(risk) for risk in categories] for model in results.models}
    urls = {model: [links.model(model, risk=risk, side="risk", eligible="yes") for risk in categories]
            for model in results.models} if links else None
    return _grouped_bars(categories, series, FIGURES["asr_by_category"], "risk category", urls=urls)


def asr_by_source(results: Results, links: ViewerLinks | None = None) -> str:
    """Figure 4's shape: for each model, ASR under direct (S1) and indirect (S2) attacks."""
    series = {source: [results.by_source[model].get(source) for model in results.models] for source in SOURCES}
    labels = {"S1": "S1 direct (prompt)", "S2": "S2 indirect (environment)"}
    urls = {labels[s]: [links.model(model, source=s, side="risk", eligible="yes") for model in results.models]
            for s in SOURCES} if links else None
    return _grouped_bars(results.models, {labels[s]: v for s, v in series.items()}, FIGURES["asr_by_source"],
                         "model", colors=SOURCE_COLORS, urls=urls)


def _grouped_bars(groups: list[str], series: dict[str, list], title: str, axis: str,
                  colors: list[str] | None = None, urls: dict[str, list[str]] | None = None) -> str:
    colors = colors or PALETTE
    width = 0.8 / max(1, len(series))
    bars = len(groups) * len(series)
    with _figure(min(11.0, max(4.5, 1.0 + 0.09 * bars + 0.25 * len(groups))), 2.8) as (_, axes, out):
        for number, (name, pooled) in enumerate(series.items()):
            offsets = [g - 0.4 + width * (number + .5) for g in range(len(groups))]
            heights = [100 * p.asr if p is not None and p.asr is not None else 0 for p in pooled]
            bars = axes.bar(offsets, heights, width, label=name, color=colors[number % len(colors)])
            for bar, url in zip(bars, urls[name] if urls else (), strict=False):
                bar.set_url(url)
            for x, p in zip(offsets, pooled, strict=True):
                if p is None or p.asr is None:
                    axes.text(x, 1, "n/a", rotation=90, ha="center", va="bottom", fontsize=6, color="#777777")
        axes.set_xticks(range(len(groups)), groups, rotation=30 if axis == "model" else 0,
                        ha="right" if axis == "model" else "center", rotation_mode="anchor")
        axes.set_ylim(0, 118 if len(series) <= 3 else 105)
        axes.set_yticks(range(0, 101, 20))
        axes.set_ylabel("ASR (%)")
        axes.set_xlabel(axis)
        axes.set_title(title)
        if len(series) <= 3:
            axes.legend(fontsize=7, frameon=False, loc="upper center", ncols=len(series))
        else:
            axes.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0),
                        ncols=ceil(len(series) / LEGEND_ROWS))
    return out["svg"]


def pair_grid(results: Results, links: ViewerLinks | None = None) -> str:
    """Per pair (rows) and combination (columns): compromised, safe, unresolved, not eligible, not run, excluded."""
    order = list(STATUS_COLORS)
    combinations = results.combinations
    pairs = results.pairs
    with _figure(0.22 * max(1, len(combinations)), 0.24 * max(1, len(pairs))) as (_, axes, out):
        grid = [[order.index(line.status[c]) for c in combinations] for line in pairs] or [[0] * len(combinations)]
        axes.imshow(grid, cmap=ListedColormap(list(STATUS_COLORS.values())), vmin=-.5, vmax=len(order) - .5,
                    aspect="auto")
        for y, line in enumerate(pairs):
            for x, combination in enumerate(combinations):
                status = line.status[combination]
                if status == PairStatus.EXCLUDED:
                    axes.add_patch(Rectangle((x - .5, y - .5), 1, 1, fill=False, hatch="///",
                                                                linewidth=0))
                elif links and status != PairStatus.NOT_RUN and len(pairs) * len(combinations) <= LINKED_CELLS:
                    axes.add_patch(_link_area(x, y, links.combination(*combination, pair=line.pair)))
        axes.set_xticks([x - .5 for x in range(1, len(combinations))], minor=True)
        axes.set_yticks([y - .5 for y in range(1, len(pairs))], minor=True)
        axes.grid(which="minor", color="white", linewidth=1)
        axes.tick_params(which="both", length=0)
        axes.set_xticks(range(len(combinations)), [f"{m} × {h}" for m, h in combinations], rotation=90,
                        fontsize=6)
        axes.set_yticks(range(len(pairs)), [f"{line.pair} ({line.cell})" for line in pairs], fontsize=7)
        if links:
            for label, line in zip(axes.get_yticklabels(), pairs, strict=True):
                label.set_url(links.index(pair=line.pair))
            for label, (model, harness) in zip(axes.get_xticklabels(), combinations, strict=True):
                label.set_url(links.combination(model, harness))
        axes.legend(handles=[Patch(facecolor=color, edgecolor="#888888", label=status,
                                   hatch="///" if status == PairStatus.EXCLUDED else None)
                             for status, color in STATUS_COLORS.items()],
                    fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        axes.set_title(FIGURES["pair_grid"])
    return out["svg"]


def _link_area(x: float, y: float, url: str) -> Rectangle:
    """An invisible cell of a heat map that links to `url` (painted, so it takes the click)."""
    return Rectangle((x - .5, y - .5), 1, 1, facecolor="white", alpha=0, linewidth=0, url=url)


def _asr_of(results: Results, model: str, harness: str) -> float | None:
    cell = results.cells[model, harness]
    return cell.metrics.asr if cell.metrics is not None else None


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"
