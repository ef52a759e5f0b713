# Writes vlmevalkit_mcq.tsv the way VLMEvalKit writes a TSV (vlmeval/smp/file.py
# dump_tsv: DataFrame.to_csv(sep='\t', index=False, quoting=csv.QUOTE_ALL)), with
# small PNG images made here. Run with a python that has pandas and Pillow:
#   python3 make_vlmevalkit.py
import base64, csv, io
import numpy as np
import pandas as pd
from PIL import Image

def png(rgb, w=8, h=6):
    buf = io.BytesIO()
    Image.new('RGB', (w, h), rgb).save(buf, format='PNG')
    return base64.b64encode(buf.getvalue()).decode()

red, green, blue = png((200, 0, 0)), png((0, 200, 0)), png((0, 0, 200))
nan = np.nan
rows = [
    # index, image, question, A, B, C, D, answer, hint, category, l2-category, split
    (1, red, 'Which object is left of the mug?', 'the lamp', 'the book', 'the pen', nan, 'B', 'Look at the desk.', 'spatial', 'left-right', 'test'),
    (2, '1', 'Which is nearer,\nthe "cup"\tor the pan?', 'the cup', 'the pan', nan, nan, 'A', nan, 'spatial', 'depth', 'test'),
    (3, green, 'Is the cup on the table?', nan, nan, nan, nan, 'Yes', nan, 'yn', 'support', 'test'),
    (4, blue, 'NA', 'x', 'y', nan, nan, 'A', nan, 'spatial', 'depth', 'test'),
    (5, red, 'Which is right of the mug?', 'the lamp', 'the book', 'the pen', 'the cup', 'C', nan, 'spatial', 'left-right', 'test'),
    (6, nan, 'Dropped?', 'a', 'b', nan, nan, 'A', nan, 'spatial', 'depth', 'test'),
    (7, '3', 'Gap?', 'a', nan, 'c', nan, 'A', nan, 'spatial', 'depth', 'test'),
    (8, '3', 'Which letter?', 'a', 'b', nan, nan, 'E', nan, 'spatial', 'depth', 'test'),
]
cols = ['index', 'image', 'question', 'A', 'B', 'C', 'D', 'answer', 'hint', 'category', 'l2-category', 'split']
pd.DataFrame(rows, columns=cols).to_csv('vlmevalkit_mcq.tsv', sep='\t', index=False, quoting=csv.QUOTE_ALL)
