"""Print each lesson kernel's peak memory after Run All (VmHWM of the kernel process, read by a last cell).

    python benchmarks/lesson_memory.py                  # every lesson in notebooks/
    python benchmarks/lesson_memory.py path/to/x.ipynb  # given notebooks

Also printed: the largest child process the kernel waited for (the torch process of ``%%side_by_side``), which
is not the kernel's memory but is there while that cell runs. Needs nbclient and a Linux /proc.
"""
import sys
from pathlib import Path

import nbclient
import nbformat

PROBE = """import resource
peak = next(int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM:'))
child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{peak / 1024:.0f} {child / 1024:.0f} {'torch' in __import__('sys').modules}")"""


def peak_mb(path: Path) -> tuple[float, float, bool]:
    """(kernel peak MB, largest child MB, whether the kernel imported torch) after running ``path``."""
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=600, allow_errors=False,
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    kernel, child, torch = nb.cells[-1].outputs[0]["text"].split()
    return float(kernel), float(child), torch == "True"


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))
    print(f"{'notebook':<40} {'kernel peak MB':>14} {'child peak MB':>13}  torch in kernel")
    for path in paths:
        kernel, child, torch = peak_mb(path)
        print(f"{path.name:<40} {kernel:>14.0f} {child:>13.0f}  {torch}")
