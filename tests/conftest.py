import sys
from pathlib import Path

# The shared puzzle cases (tests/cases.py) are imported by name from every test module.
sys.path.insert(0, str(Path(__file__).parent))
