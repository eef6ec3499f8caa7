"""Helpers more than one test module uses (fixtures live in tests/conftest.py):

- `marks.needs_root(why)`: skip unless root (CI runs as root), saying what root is needed for;
- `scripts.load_script(name)`: a `scripts/<name>.py` report as a module, to share its workload;
- `processes.started_together(code, argvs)`: Python children released at the same moment;
- `processes.fresh_python(code)`: what a fresh interpreter prints (what a module loads);
- `gate_screen.refused_by(text)`: the instruction rules that refused a text (gate class tests).
"""
