"""storebench io extents/fragment/defrag on real ext4, xfs and ext2 file systems in loop devices
made (and removed, also on failure) by this test: extent counts equal filefrag's, fragment
reaches its target within 10 % and keeps every byte (io verify passes) with each of its methods
(--method move_ext, punch, copy) and with the fallback chain, also on an ext4 whose kernel
refuses EXT4_IOC_MOVE_EXT (bigalloc: EOPNOTSUPP), defrag lowers the count with the file system's
online method (ext4 EXT4_IOC_MOVE_EXT, xfs xfs_fsr) or by copy and rename where there is none
(ext2) or where the move is refused, and refused commands leave the file byte-identical. Needs
root (loop devices, mount); skipped otherwise.

FragmentHereTest needs neither: it fragments a file in the test directory, on whatever holds it
(on the VM this was written on, a root ext4 that refuses EXT4_IOC_MOVE_EXT with EPERM), and
checks that the chain reaches the target and records what each method did, so it passes where
the ioctl works and where it is refused."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import check_schema  # noqa: E402
import harness  # noqa: E402

MIB = 1 << 20
# The io runs' and fragtest trials' measured time: the cases assert what a run records (its
# target's extents, file system, the trials' order and figures), which 200 ms of I/O records as
# a second does.
RUN_TIME = "200ms"


def sh(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(MIB), b""):
            h.update(chunk)
    return h.hexdigest()


def load_json(path):
    with open(path) as f:
        return json.load(f)


def filefrag(path):
    out = sh("filefrag", path)
    return int(re.search(r"(\d+) extents? found", out).group(1))


def image_dir():
    """Where the loop file systems' images go: a directory of this run's own in /dev/shm when
    that is a tmpfs with room, else the test directory. The file systems on the loop devices
    are the same either way; on tmpfs their writes (EXT4_IOC_MOVE_EXT waits for each moved
    extent's) go to memory instead of the disk the whole machine shares, where they took most
    of this file's time."""
    shm = "/dev/shm"
    try:
        st = os.statvfs(shm)
        with open("/proc/mounts") as f:
            tmpfs = any(line.split()[1:3] == [shm, "tmpfs"] for line in f)
    except OSError:
        return None
    if not tmpfs or st.f_bavail * st.f_frsize < 2048 * MIB or not os.access(shm, os.W_OK):
        return None
    return tempfile.mkdtemp(prefix="sbfrag_images_", dir=shm)


class LoopFs:
    """An image file, a loop device and a mount; close() undoes whatever was done."""

    def __init__(self, name, mkfs, size_mib, images=None):
        self.image = (os.path.join(images, f"frag_{name}.img") if images
                      else harness.tmp_path(f"frag_{name}.img"))
        self.mnt = tempfile.mkdtemp(prefix=f"sbfrag_{name}_", dir=harness.ARGS.tmp)
        self.dev = None
        self.mounted = False
        with open(self.image, "wb") as f:
            f.truncate(size_mib * MIB)
        self.dev = sh("losetup", "-f", "--show", self.image).strip()
        sh(*mkfs, self.dev)
        sh("mount", self.dev, self.mnt)
        self.mounted = True

    def path(self, name):
        return os.path.join(self.mnt, name)

    def close(self):
        if self.mounted:
            subprocess.run(["umount", self.mnt], capture_output=True)
        if self.dev:
            subprocess.run(["losetup", "-d", self.dev], capture_output=True)
        shutil.rmtree(self.mnt, ignore_errors=True)
        if os.path.exists(self.image):
            os.remove(self.image)


class FragmentationTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0:
            raise unittest.SkipTest("needs root for loop devices and mount")
        for tool in ("losetup", "mkfs.ext4", "mkfs.xfs", "mkfs.ext2", "filefrag", "xfs_fsr"):
            if shutil.which(tool) is None:
                raise unittest.SkipTest(f"{tool} is missing (scripts/install-deps.sh)")
        cls.fs = {}
        images = image_dir()
        if images:
            # Removed after every file system's close (class cleanups run last in, first out).
            cls.addClassCleanup(shutil.rmtree, images, True)
        specs = {"ext4": (["mkfs.ext4", "-q", "-F"], 256),
                 "xfs": (["mkfs.xfs", "-q", "-f"], 320),
                 "ext2": (["mkfs.ext2", "-q", "-F", "-b", "4096"], 128)}
        try:
            for name, (mkfs, size) in specs.items():
                cls.fs[name] = LoopFs(name, mkfs, size, images)
                cls.addClassCleanup(cls.fs[name].close)
        except subprocess.CalledProcessError as e:
            for f in cls.fs.values():
                f.close()
            raise unittest.SkipTest(f"cannot make a loop file system here: {e.stderr.strip()}")
        # An ext4 whose kernel refuses EXT4_IOC_MOVE_EXT: online defragmentation is not supported
        # with bigalloc (fs/ext4/ioctl.c answers EOPNOTSUPP); clusters of one block keep punch
        # and collapse working. Older mke2fs may refuse such a cluster size: then the cases that
        # need it skip.
        try:
            cls.fs["ext4_nomove"] = LoopFs(
                "ext4_nomove", ["mkfs.ext4", "-q", "-F", "-b", "4096", "-O", "bigalloc", "-C",
                                "4096"], 128, images)
            cls.addClassCleanup(cls.fs["ext4_nomove"].close)
        except subprocess.CalledProcessError as e:
            cls.nomove_error = e.stderr.strip()

    def sb(self, *args):
        return harness.storebench(*args)

    def prepare(self, fs, name, size="32MiB", *extra):
        path = self.fs[fs].path(name)
        p = self.sb("io", "prepare", "--target", path, "--size", size, *extra)
        self.assertEqual(p.returncode, 0, p.stderr)
        return path

    def extents_json(self, *paths):
        out = harness.tmp_path("frag_extents.json")
        p = self.sb("io", "extents", *paths, "--json", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        return load_json(out)

    def test_extent_counts_equal_filefrags(self):
        for fs in ("ext4", "xfs", "ext2"):
            with self.subTest(fs=fs):
                plain = self.prepare(fs, "count_plain.tst")
                frag = self.prepare(fs, "count_frag.tst")
                p = self.sb("io", "fragment", "--target", frag, "--extents", "700")
                self.assertEqual(p.returncode, 0, p.stderr)
                # A file with holes and a preallocated (unwritten) tail that storebench did not
                # make: measuring only reads.
                sparse = self.fs[fs].path("count_sparse.bin")
                with open(sparse, "wb") as f:
                    for i in range(0, 64, 3):
                        f.seek(i * 64 * 1024)
                        f.write(os.urandom(4096))
                if fs != "ext2":
                    sh("fallocate", "-o", str(8 * MIB), "-l", str(2 * MIB), sparse)
                doc = self.extents_json(plain, frag, sparse)
                self.assertEqual(doc["kind"], "storebench.extents")
                by_path = {f["path"]: f for f in doc["files"]}
                for path in (plain, frag, sparse):
                    self.assertEqual(by_path[path]["extents"], filefrag(path), path)
                    self.assertGreaterEqual(by_path[path]["fs_extents"], by_path[path]["extents"])
                self.assertGreater(by_path[frag]["extents"], 600)
                self.assertEqual(by_path[frag]["discontinuities"], by_path[frag]["extents"] - 1)
                self.assertGreater(by_path[frag]["seek_bytes"], 0)
                if fs != "ext2":
                    self.assertGreaterEqual(by_path[sparse]["unwritten_extents"], 1)
                vol = doc["volumes"][0]
                self.assertEqual(vol["type"], fs)
                self.assertEqual(vol["files"], 3)
                self.assertEqual(vol["totals"]["extents"],
                                 sum(by_path[p]["extents"] for p in (plain, frag, sparse)))
                self.assertEqual(vol["most_fragmented"][0], frag)
                if fs in ("ext4", "xfs"):
                    self.assertTrue(vol["free_space"]["available"], vol["free_space"])
                    self.assertGreater(vol["free_space"]["free_extents"], 0)
                # --recursive over the mount finds the same files.
                out = harness.tmp_path("frag_extents_rec.json")
                p = self.sb("io", "extents", self.fs[fs].mnt, "--recursive", "--json", out)
                self.assertEqual(p.returncode, 0, p.stderr)
                rec = {f["path"]: f["extents"] for f in load_json(out)["files"]}
                for path in (plain, frag, sparse):
                    self.assertEqual(rec[path], by_path[path]["extents"])
                for path in (plain, frag, sparse):
                    os.remove(path)

    def test_fragment_reaches_target_and_keeps_the_data(self):
        for fs, target in (("ext4", 2048), ("xfs", 2048), ("ext4", 16), ("xfs", 300)):
            with self.subTest(fs=fs, target=target):
                path = self.prepare(fs, f"frag_{target}.tst", "16MiB")
                # Verify blocks (offset + checksum each) over the data area, so a moved or zeroed
                # block would show.
                p = self.sb("io", "verify", "--target", path, "--verify_phase", "write")
                self.assertEqual(p.returncode, 0, p.stderr)
                before = sha(path)
                p = self.sb("io", "fragment", "--target", path, "--extents", str(target))
                self.assertEqual(p.returncode, 0, p.stderr)
                n = filefrag(path)
                self.assertLessEqual(abs(n - target), 0.1 * target, p.stdout + p.stderr)
                self.assertEqual(sha(path), before)
                p = self.sb("io", "verify", "--target", path, "--verify_phase", "read")
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                self.assertIn("all blocks intact", p.stdout)
                # io run works on it unchanged, and its result carries the extent count.
                out = harness.tmp_path("frag_run.json")
                p = self.sb("io", "run", "--target", path, "--spec", "4KiB,100%read,100%random",
                            "--run_time", RUN_TIME, "--engine", "psync", "--json", out)
                self.assertEqual(p.returncode, 0, p.stderr)
                t = load_json(out)["storage"][0]["targets"][0]
                self.assertEqual(t["extents"], n)
                self.assertEqual(t["filesystem"], fs)
                os.remove(path)

    def test_prepare_fragment(self):
        path = self.fs["xfs"].path("prep_frag.tst")
        p = self.sb("io", "prepare", "--target", path, "--size", "16MiB", "--fragment", "500")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertLessEqual(abs(filefrag(path) - 500), 50)
        p = self.sb("io", "run", "--target", path, "--spec", "8KiB,50%read,100%random",
                    "--run_time", RUN_TIME, "--engine", "psync",
                    "--json", harness.tmp_path("frag_prep_run.json"))
        self.assertEqual(p.returncode, 0, p.stderr)
        os.remove(path)

    def need_nomove(self):
        if "ext4_nomove" not in self.fs:
            self.skipTest(f"cannot make a bigalloc ext4 here: {self.nomove_error}")

    def fragment_json(self, path, extents, *extra):
        out = harness.tmp_path("frag_fragment.json")
        if os.path.exists(out):
            os.remove(out)
        p = self.sb("io", "fragment", "--target", path, "--extents", str(extents), "--json", out,
                    *extra)
        doc = load_json(out) if os.path.exists(out) else None
        return p, doc

    def no_leftovers(self, fs):
        # Neither a donor nor a copy is left behind.
        self.assertEqual(sorted(n for n in os.listdir(self.fs[fs].mnt) if n.startswith(".")), [])

    def check_fragmented(self, fs, path, target, digest, doc, method):
        """The file is at the target within 10 %, byte-identical, its verify blocks intact, and
        the document names `method` as the one used and agrees with filefrag."""
        n = filefrag(path)
        self.assertLessEqual(abs(n - target), 0.1 * target)
        self.assertEqual(sha(path), digest)
        p = self.sb("io", "verify", "--target", path, "--verify_phase", "read")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(doc["kind"], "storebench.fragment")
        self.assertEqual(doc["filesystem"], fs.split("_")[0])
        self.assertEqual(doc["extents_after"], n)
        self.assertTrue(doc["reached"])
        self.assertEqual(doc["method"], method)
        used = [a for a in doc["attempts"] if a["method"] == method]
        self.assertEqual(used[0]["status"], "reached", doc["attempts"])
        self.no_leftovers(fs)

    def test_each_method_on_its_own(self):
        cases = (("ext4", "move_ext"), ("ext4", "punch"), ("ext4", "copy"), ("xfs", "punch"),
                 ("xfs", "copy"), ("ext2", "punch"))
        for fs, method in cases:
            with self.subTest(fs=fs, method=method):
                path = self.prepare(fs, f"method_{method}.tst", "16MiB")
                p = self.sb("io", "verify", "--target", path, "--verify_phase", "write")
                self.assertEqual(p.returncode, 0, p.stderr)
                digest = sha(path)
                p, doc = self.fragment_json(path, 600, "--method", method)
                if method == "move_ext" and "EXT4_IOC_MOVE_EXT was refused" in p.stderr:
                    # A kernel that refuses the move on every ext4: forced, that is an error
                    # that names the errno and leaves the file as it was.
                    self.assertEqual(p.returncode, 1, p.stderr)
                    self.assertRegex(p.stderr, r"\(E[A-Z0-9]+\)")
                    self.assertEqual(sha(path), digest)
                    self.no_leftovers(fs)
                    os.remove(path)
                    continue
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                self.assertIn(f"by {method}", p.stdout)
                self.assertEqual(doc["method_asked"], method)
                self.assertEqual([a["method"] for a in doc["attempts"]], [method])
                self.check_fragmented(fs, path, 600, digest, doc, method)
                os.remove(path)

    def test_a_method_the_file_system_lacks_is_refused(self):
        for fs, method, words in (("xfs", "move_ext", "needs ext4"),
                                  ("ext2", "move_ext", "needs ext4"),
                                  ("ext2", "copy", "cannot collapse")):
            with self.subTest(fs=fs, method=method):
                path = self.prepare(fs, "lacks.tst", "8MiB")
                digest = sha(path)
                p = self.sb("io", "fragment", "--target", path, "--extents", "100",
                            "--method", method)
                self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
                self.assertIn(words, p.stderr)
                self.assertIn(f"--method {method}", p.stderr)
                self.assertEqual(sha(path), digest)
                self.no_leftovers(fs)
                os.remove(path)
        path = self.prepare("ext4", "bad_method.tst", "8MiB")
        p = self.sb("io", "fragment", "--target", path, "--extents", "100", "--method", "online")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("is not auto, move_ext, punch or copy", p.stderr)
        os.remove(path)

    def test_auto_falls_back_where_the_kernel_refuses_the_move(self):
        self.need_nomove()
        path = self.prepare("ext4_nomove", "nomove.tst", "16MiB")
        p = self.sb("io", "verify", "--target", path, "--verify_phase", "write")
        self.assertEqual(p.returncode, 0, p.stderr)
        digest = sha(path)
        # Forced, the refusal is an error that names it and changes nothing.
        p = self.sb("io", "fragment", "--target", path, "--extents", "500", "--method", "move_ext")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("EXT4_IOC_MOVE_EXT was refused", p.stderr)
        self.assertIn("EOPNOTSUPP", p.stderr)
        self.assertEqual(sha(path), digest)
        self.no_leftovers("ext4_nomove")
        # auto: the note on stderr, the next method does it, the document says why.
        p, doc = self.fragment_json(path, 500)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("EOPNOTSUPP", p.stderr)
        self.assertIn("falling back to punch", p.stderr)
        first = doc["attempts"][0]
        self.assertEqual((first["method"], first["status"]), ("move_ext", "refused"))
        self.assertIn("EOPNOTSUPP", first["why"])
        self.assertIn("move_ext refused", p.stdout)
        self.assertIn(doc["method"], ("punch", "copy"))
        self.check_fragmented("ext4_nomove", path, 500, digest, doc, doc["method"])
        os.remove(path)

    def defrag(self, fs, name, method_expected):
        path = self.prepare(fs, name, "16MiB")
        p = self.sb("io", "fragment", "--target", path, "--extents", "1500")
        self.assertEqual(p.returncode, 0, p.stderr)
        before_count = filefrag(path)
        before = sha(path)
        out = harness.tmp_path(f"frag_defrag_{fs}.json")
        p = self.sb("io", "defrag", path, "--json", out)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        after_count = filefrag(path)
        self.assertLess(after_count, before_count / 10)
        self.assertEqual(sha(path), before)
        f = load_json(out)["files"][0]
        self.assertEqual(f["extents_before"], before_count)
        self.assertEqual(f["extents_after"], after_count)
        if method_expected is not None:
            self.assertEqual(f["method"], method_expected)
        self.assertEqual(f["attempts"][-1]["method"], f["method"])
        self.no_leftovers(fs)
        os.remove(path)
        return f

    def test_defrag_ext4_online(self):
        f = self.defrag("ext4", "defrag.tst", None)
        if f["attempts"][0]["refused"]:
            # A kernel that refuses the move on every ext4: the copy follows.
            self.assertRegex(f["attempts"][0]["outcome"], r"\(E[A-Z0-9]+\)")
            self.assertEqual(f["method"], "copy_rename")
        else:
            self.assertEqual(f["method"], "EXT4_IOC_MOVE_EXT")
            self.assertEqual(len(f["attempts"]), 1)

    def test_defrag_falls_back_to_copy_where_the_move_is_refused(self):
        self.need_nomove()
        f = self.defrag("ext4_nomove", "defrag.tst", "copy_rename")
        self.assertEqual([a["method"] for a in f["attempts"]], ["EXT4_IOC_MOVE_EXT", "copy_rename"])
        self.assertTrue(f["attempts"][0]["refused"])
        self.assertIn("EOPNOTSUPP", f["attempts"][0]["outcome"])

    def test_defrag_xfs_online(self):
        f = self.defrag("xfs", "defrag.tst", "xfs_fsr")
        self.assertEqual(len(f["attempts"]), 1)

    def test_defrag_falls_back_to_copy_without_online_method(self):
        f = self.defrag("ext2", "defrag.tst", "copy_rename")
        self.assertEqual(f["attempts"][0]["ran"], False)
        self.assertIn("no online defragmentation", f["attempts"][0]["outcome"])

    def test_a_failing_defrag_tool_is_recorded_and_the_copy_follows(self):
        # An xfs_fsr that fails (first on PATH): its exit status and words are the attempt's
        # outcome, and copy and rename does the work.
        bindir = tempfile.mkdtemp(prefix="sbfrag_bin_", dir=harness.ARGS.tmp)
        tool = os.path.join(bindir, "xfs_fsr")
        with open(tool, "w") as f:
            f.write("#!/bin/sh\necho 'xfs_fsr: simulated failure' >&2\nexit 1\n")
        os.chmod(tool, 0o755)
        path = self.prepare("xfs", "failing_tool.tst", "16MiB")
        p = self.sb("io", "fragment", "--target", path, "--extents", "1000")
        self.assertEqual(p.returncode, 0, p.stderr)
        before_count = filefrag(path)
        digest = sha(path)
        out = harness.tmp_path("frag_defrag_failing.json")
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
        p = harness.storebench("io", "defrag", path, "--json", out, env=env)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        f = load_json(out)["files"][0]
        self.assertEqual([a["method"] for a in f["attempts"]], ["xfs_fsr", "copy_rename"])
        self.assertTrue(f["attempts"][0]["ran"])
        self.assertFalse(f["attempts"][0]["ok"])
        self.assertIn("exited 1", f["attempts"][0]["outcome"])
        self.assertIn("simulated failure", f["attempts"][0]["outcome"])
        self.assertEqual(f["attempts"][0]["extents_after"], before_count)
        self.assertEqual(f["method"], "copy_rename")
        self.assertLess(filefrag(path), before_count)
        self.assertEqual(sha(path), digest)
        os.remove(path)
        shutil.rmtree(bindir)

    def test_refusals_leave_the_file_identical(self):
        # A file storebench did not create.
        foreign = self.fs["ext4"].path("foreign.bin")
        with open(foreign, "wb") as f:
            f.write(os.urandom(4 * MIB))
        digest = sha(foreign)
        for args in (["fragment", "--target", foreign, "--extents", "100"], ["defrag", foreign]):
            p = self.sb("io", *args)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("storebench did not create it", p.stderr)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertEqual(sha(foreign), digest)
        os.remove(foreign)
        # A read-only mount.
        path = self.prepare("ext2", "ro.tst", "8MiB")
        p = self.sb("io", "fragment", "--target", path, "--extents", "200")
        self.assertEqual(p.returncode, 0, p.stderr)
        digest = sha(path)
        sh("mount", "-o", "remount,ro", self.fs["ext2"].mnt)
        try:
            for args in (["fragment", "--target", path, "--extents", "400"],
                         ["defrag", path]):
                p = self.sb("io", *args)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn("read-only mount", p.stderr)
                self.assertEqual(sha(path), digest)
        finally:
            sh("mount", "-o", "remount,rw", self.fs["ext2"].mnt)
        os.remove(path)
        # A file system without FIEMAP (tmpfs).
        tmpfs = tempfile.mkdtemp(prefix="sbfrag_tmpfs_", dir=harness.ARGS.tmp)
        sh("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", tmpfs)
        try:
            path = os.path.join(tmpfs, "t.tst")
            p = self.sb("io", "prepare", "--target", path, "--size", "4MiB", "--direct=N")
            self.assertEqual(p.returncode, 0, p.stderr)
            digest = sha(path)
            for args in (["extents", path], ["fragment", "--target", path, "--extents", "10"],
                         ["defrag", path]):
                p = self.sb("io", *args)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn("does not report extents", p.stderr)
                self.assertEqual(sha(path), digest)
            # io run still runs there; its result says why it has no extent count.
            out = harness.tmp_path("frag_tmpfs_run.json")
            p = self.sb("io", "run", "--target", path, "--spec", "4KiB,100%read,0%random",
                        "--run_time", RUN_TIME, "--engine", "psync", "--direct=N", "--json", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            t = load_json(out)["storage"][0]["targets"][0]
            self.assertIsNone(t["extents"])
            self.assertIn("FIEMAP", t["extents_note"])
        finally:
            subprocess.run(["umount", tmpfs], capture_output=True)
            os.rmdir(tmpfs)

    def test_target_out_of_reach(self):
        path = self.prepare("ext4", "reach.tst", "4MiB")
        digest = sha(path)
        p = self.sb("io", "fragment", "--target", path, "--extents", "100000")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("out of reach", p.stderr)
        self.assertEqual(sha(path), digest)
        os.remove(path)

    def check_schema(self, path):
        status, messages = check_schema.check(
            path, os.path.join(harness.ARGS.source, "docs/output-schema.json"))
        self.assertEqual(status, 0, messages)

    def test_read_and_copy_record_extents(self):
        src = self.prepare("ext4", "copy_src.tst", "16MiB")
        p = self.sb("io", "fragment", "--target", src, "--extents", "800")
        self.assertEqual(p.returncode, 0, p.stderr)
        n = filefrag(src)
        out = harness.tmp_path("frag_read.json")
        p = self.sb("io", "read", src, "--json", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("posix_fadvise", p.stdout)
        self.check_schema(out)
        doc = load_json(out)
        figures = doc["figures"]
        self.assertEqual(figures["extents"], n)
        self.assertEqual(figures["bytes"], 17 * MIB)
        self.assertIn("O_DIRECT", doc["choices"]["file_op.method"])
        dst = self.fs["ext4"].path("copy_dst.tst")
        out = harness.tmp_path("frag_copy.json")
        p = self.sb("io", "copy", src, dst, "--json", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check_schema(out)
        figures = load_json(out)["figures"]
        self.assertEqual(figures["src_extents"], n)
        self.assertEqual(figures["dst_extents"], filefrag(dst))
        self.assertEqual(sha(dst), sha(src))
        # An existing DST is refused and left as it is.
        digest = sha(dst)
        p = self.sb("io", "copy", src, dst)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(sha(dst), digest)
        os.remove(src)
        os.remove(dst)

    def test_churn_samples_the_volume(self):
        d = self.fs["ext4"].path("churn")
        out = harness.tmp_path("frag_churn.json")
        p = self.sb("io", "churn", "--dir", d, "--writers", "3", "--duration", "1s",
                    "--sample_interval", "200ms", "--max_bytes", "96MiB", "--json", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = load_json(out)
        self.assertEqual(doc["kind"], "storebench.churn")
        self.assertEqual(doc["before"]["files"], 0)
        self.assertGreater(doc["after"]["files"], 0)
        self.assertGreaterEqual(len(doc["samples"]), 3)
        # Every byte in the files was written by a writer (deletions only lower what is left).
        self.assertGreaterEqual(doc["bytes_written"], doc["after"]["file_bytes"])
        # The last sample is what io extents counts for the same files.
        rec = harness.tmp_path("frag_churn_extents.json")
        p = self.sb("io", "extents", d, "--recursive", "--json", rec)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(load_json(rec)["volumes"][0]["totals"]["extents"],
                         doc["after"]["extents"])
        self.assertGreater(doc["after"]["volume_used_bytes"], doc["before"]["volume_used_bytes"])
        shutil.rmtree(d)

    def test_fragtest_before_and_after(self):
        path = self.prepare("ext4", "fragtest.tst", "16MiB")
        out = harness.tmp_path("frag_fragtest.json")
        p = self.sb("io", "fragtest", "--target", path, "--extents", "1000", "--spec",
                    "8KiB,65%read,60%random", "--rounds", "2", "--run_time", RUN_TIME,
                    "--engine", "psync", "--json", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check_schema(out)
        doc = load_json(out)
        figures = doc["figures"]
        self.assertLessEqual(abs(figures["extents_before"] - 1000), 100)
        self.assertLess(figures["extents_after"], figures["extents_before"])
        # Two rounds end with a "before" trial: the file is left fragmented.
        self.assertEqual(figures["extents_before"], filefrag(path))
        # ABBA: round 1 before then after, round 2 after then before (the file fragmented
        # again for it), so a cache or device warming up weighs on both alike.
        names = [t["name"].split(":")[0] for t in doc["storage"]]
        self.assertEqual(names, ["before r1", "after r1", "after r2", "before r2"])
        for t in doc["storage"]:
            extents = t["targets"][0]["extents"]
            if t["name"].startswith("before"):
                self.assertLessEqual(abs(extents - 1000), 100)
            else:
                self.assertLess(extents, 100)
        self.assertEqual(doc["storage"][-1]["targets"][0]["extents"], figures["extents_before"])
        # The ratio with its bootstrap interval and a verdict that claims no effect when the
        # interval holds 1; the file's pages dropped before each trial.
        key = next(k[len("ratio."):] for k in figures if k.startswith("ratio.") and "iops" in k)
        self.assertGreater(figures["ratio." + key], 0)
        low, high = figures["ratio_low." + key], figures["ratio_high." + key]
        self.assertLessEqual(low, high)
        verdict = doc["choices"]["fragtest.verdict." + key]
        self.assertEqual(verdict, "no measurable effect" if low <= 1 <= high
                         else "higher after" if low > 1 else "lower after")
        self.assertIn("posix_fadvise DONTNEED", doc["choices"]["fragtest.page_cache"])
        self.assertIn("ABBA", doc["choices"]["fragtest.order"])
        self.assertIn("EXT4_IOC_MOVE_EXT", doc["choices"]["fragtest.defrag"])
        self.assertIn("before.seq_read.mib_per_sec_median", figures)
        method = doc["choices"]["fragtest.fragment_method"]
        self.assertIn(method, ("move_ext", "punch", "copy"))
        self.assertIn(f"{method} reached", doc["choices"]["fragtest.fragment_attempts"])
        self.assertIn("--method auto", doc["choices"]["fragtest.fragment"])
        os.remove(path)


class FragmentHereTest(unittest.TestCase):
    """io fragment and io fragtest in the test directory, on whatever file system holds it."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sbfrag_here_", dir=harness.ARGS.tmp)
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.path = os.path.join(self.dir, "here.tst")
        p = harness.storebench("io", "prepare", "--target", self.path, "--size", "16MiB")
        self.assertEqual(p.returncode, 0, p.stderr)
        p = harness.storebench("io", "extents", self.path)
        if p.returncode == 2 and "does not report extents" in p.stderr:
            self.skipTest("the test directory's file system has no FIEMAP")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_auto_reaches_the_target_and_says_how(self):
        digest = sha(self.path)
        out = os.path.join(self.dir, "fragment.json")
        p = harness.storebench("io", "fragment", "--target", self.path, "--extents", "400",
                               "--json", out)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        doc = load_json(out)
        self.assertTrue(doc["reached"], doc)
        self.assertLessEqual(abs(doc["extents_after"] - 400), 40)
        self.assertEqual(sha(self.path), digest)
        self.assertEqual(doc["method_asked"], "auto")
        attempts = {a["method"]: a for a in doc["attempts"]}
        self.assertEqual(list(attempts), ["move_ext", "punch", "copy"])
        self.assertEqual(attempts[doc["method"]]["status"], "reached")
        # Every method before the one used says why it did not do the job; every one after it
        # was not needed.
        order = list(attempts)
        for name in order[:order.index(doc["method"])]:
            a = attempts[name]
            self.assertIn(a["status"], ("refused", "short", "not_applicable"), a)
            self.assertTrue(a["why"], a)
            if a["status"] == "refused":
                self.assertRegex(a["why"], r"\(E[A-Z0-9]+\)")
                self.assertIn(a["why"], p.stderr)
        for name in order[order.index(doc["method"]) + 1:]:
            self.assertEqual(attempts[name]["status"], "not_needed")
        if doc["filesystem"] != "ext4":
            self.assertEqual(attempts["move_ext"]["status"], "not_applicable")
        self.assertIn("methods: ", p.stdout)
        self.assertEqual(sorted(n for n in os.listdir(self.dir) if n.startswith(".")), [])

    def test_fragtest_with_a_chosen_fragment_method(self):
        out = os.path.join(self.dir, "fragtest.json")
        p = harness.storebench("io", "fragtest", "--target", self.path, "--extents", "300",
                               "--fragment_method", "copy", "--spec", "4KiB,100%read,100%random",
                               "--rounds", "1", "--run_time", RUN_TIME, "--engine", "psync",
                               "--seq_read=N", "--json", out)
        if p.returncode == 2 and "cannot collapse" in p.stderr:
            self.skipTest("the test directory's file system cannot collapse ranges")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        doc = load_json(out)
        self.assertEqual(doc["choices"]["fragtest.fragment_method"], "copy")
        self.assertTrue(doc["choices"]["fragtest.fragment_attempts"].startswith("copy reached"))
        self.assertIn("--method copy", doc["choices"]["fragtest.fragment"])
        self.assertLessEqual(abs(doc["figures"]["extents_before"] - 300), 30)


if __name__ == "__main__":
    harness.main()
