# Makes the JPEGs of decode_test.go that Go's encoder cannot write (Debian's
# python3-pil): run from this folder with /usr/bin/python3 make.py.
import numpy as np
from PIL import Image


def scene(w, h):
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    r = 128 + 100 * np.sin(x / 37.0) * np.cos(y / 23.0)
    g = 255 * x / w
    b = 128 + 90 * np.sin((x + 2 * y) / 11.0)
    m = np.stack([r, g, b], axis=-1)
    m[(x // 97 + y // 61) % 2 == 0] *= 0.6  # hard edges
    return np.clip(m, 0, 255).astype(np.uint8)


Image.fromarray(scene(160, 120)).convert("CMYK").save("cmyk.jpg", quality=90)
Image.fromarray(scene(3300, 180)).save("progressive444.jpg", quality=90, progressive=True, subsampling=0)
