# The programs are run as subprocesses by tests/test_real_programs.py, never imported by pytest's doctest
# collection (they would run under real torch at import, and the shim would replace torch in the test process).
collect_ignore_glob = ["*.py"]
