"""Build the solver's C core. All other metadata lives in pyproject.toml.

The extension is optional: if it does not compile, the install still succeeds and
mediatore_env.analysis.solver falls back to its pure-Python search (solver.BACKEND == "python").
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "mediatore_env.analysis._dds",
            ["mediatore_env/analysis/_dds.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
