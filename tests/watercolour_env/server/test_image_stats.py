import io

import numpy as np
from PIL import Image

from watercolour_env.server.image_stats import image_stats_score
from watercolour_env.server.render import paint_fraction


def png_of(kind: str) -> bytes:
    """A 600x600 test image: blank paper, a grey square, or colourful stripes."""
    img = np.full((600, 600, 3), (250, 246, 238), dtype=np.uint8)
    if kind == "grey":
        img[200:400, 200:400] = (120, 120, 120)
    elif kind == "stripes":
        colours = [(230, 60, 60), (60, 160, 60), (60, 60, 220), (240, 200, 40)]
        for i, c in enumerate(colours):
            img[100 + 100 * i : 160 + 100 * i, 50:550] = c
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    return buf.getvalue()


def test_paint_fraction_counts_pixels_that_differ_from_the_paper():
    assert paint_fraction(png_of("blank")) == 0.0
    # a 200 x 200 square on 600 x 600 = 1/9
    assert abs(paint_fraction(png_of("grey")) - 1 / 9) < 1e-9


def test_blank_paper_scores_zero():
    score, terms = image_stats_score(png_of("blank"))
    assert score == 0.0 and terms["coverage"] == 0.0


def test_colourful_paint_outscores_a_grey_square():
    grey, _ = image_stats_score(png_of("grey"))
    stripes, terms = image_stats_score(png_of("stripes"))
    assert stripes > grey
    assert all(0.0 <= v <= 1.0 for v in terms.values())
