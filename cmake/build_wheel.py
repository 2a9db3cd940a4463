"""Writes the pytest plugin's wheel from interpose/python/pyproject.toml with
the standard library only, so that the build needs no setuptools and the
wheel installs with no network: python3 build_wheel.py PYPROJECT OUT_DIR"""
import base64
import hashlib
import pathlib
import sys
import tomllib
import zipfile


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def main(pyproject_path, out_dir):
    pyproject = pathlib.Path(pyproject_path)
    config = tomllib.loads(pyproject.read_text())
    project = config["project"]
    modules = config["tool"]["setuptools"]["py-modules"]
    dist = project["name"].replace("-", "_")
    info = f"{dist}-{project['version']}.dist-info"
    metadata = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}",
                f"Summary: {project['description']}", f"Requires-Python: {project['requires-python']}"]
    metadata += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        metadata.append(f"Provides-Extra: {extra}")
        metadata += [f'Requires-Dist: {d}; extra == "{extra}"' for d in requirements]
    entry_points = "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()) + "\n"
                           for group, points in project.get("entry-points", {}).items())
    files = {f"{m}.py": (pyproject.parent / f"{m}.py").read_bytes() for m in modules}
    files[f"{info}/METADATA"] = ("\n".join(metadata) + "\n").encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: cudaleak\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/entry_points.txt"] = entry_points.encode()
    record = [record_line(name, data) for name, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = pathlib.Path(out_dir) / f"{dist}-{project['version']}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)  # reproducible
    print(wheel)


if __name__ == "__main__":
    main(*sys.argv[1:])
