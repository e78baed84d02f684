"""Build the C cores: the double-dummy solver's and pimc-infer's player model's. All other
metadata lives in pyproject.toml.

Both extensions are optional: if one does not compile, the install still succeeds and its
module falls back to the same algorithm in Python (mediatore_env.analysis.solver.BACKEND ==
"python") or numpy (agents.mediatore.infer.BACKEND == "numpy").
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "mediatore_env.analysis._dds",
            ["mediatore_env/analysis/_dds.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "agents.mediatore._likelihood",
            ["agents/mediatore/_likelihood.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ]
)
