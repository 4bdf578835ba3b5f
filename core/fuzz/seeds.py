"""Write the Tenhou XML examples of ``examples/`` (decompressed) into a fuzz corpus folder."""

import gzip
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
for path in sorted(EXAMPLES.glob("*.mjlog")):
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    (out / path.stem).write_bytes(data)
    print(out / path.stem)
