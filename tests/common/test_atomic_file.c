/* Outputs never replace what is at the path (util/atomic_file.h): regular files replaced
 * atomically with the right bytes and mode, new files, symbolic links (also dangling) written
 * through, a FIFO, /dev/fd/N and device nodes written straight through and left in place,
 * /dev/full failing with ENOSPC at commit, directories refused, temporaries of dead writers
 * removed and those of live ones kept, abort and early exit leaving nothing.
 * Device nodes: a private one (mknod c 1 3 in the scratch directory, root only: skipped with a
 * message otherwise); the system's /dev/null and /dev/full are written only by a non-root user
 * or, as root, once the private node came through unharmed. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_file.h"
#include "test_util.h"

static char dir[PATH_MAX]; /* absolute scratch directory */

static const char *at(const char *name)
{
    static char buf[32][PATH_MAX + 64]; /* a test uses fewer names than this at once */
    static int k;
    k = (k + 1) % 32;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* The file's bytes (NUL-terminated, at most cap - 1), or -1. */
static long slurp(const char *path, char *out, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    fclose(f);
    return (long)n;
}

static void put(const char *path, const char *text, mode_t mode)
{
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
        fprintf(stderr, "cannot set up %s\n", path);
        exit(2);
    }
    fchmod(fd, mode);
    close(fd);
}

static int has(const char *path, const char *want)
{
    char buf[256];
    return slurp(path, buf, sizeof buf) == (long)strlen(want) && strcmp(buf, want) == 0;
}

static char lkind(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return '-';
    return S_ISLNK(st.st_mode) ? 'l' : S_ISREG(st.st_mode) ? 'f' : S_ISFIFO(st.st_mode) ? 'p'
         : S_ISCHR(st.st_mode) ? 'c' : S_ISDIR(st.st_mode) ? 'd' : '?';
}

/* Number of our temporaries in directory d. */
static int temps_in(const char *d)
{
    DIR *dp = opendir(d);
    int n = 0;
    struct dirent *e;
    while (dp && (e = readdir(dp)))
        if (strstr(e->d_name, ".bulk-tmp-")) n++;
    if (dp) closedir(dp);
    return n;
}

static void test_regular(void)
{
    const char *p = at("reg.txt");
    put(p, "old contents\n", 0640);
    struct stat before, after;
    stat(p, &before);
    int old_fd = open(p, O_RDONLY); /* a reader of the old file keeps seeing it */
    bulk_afile f;
    CHECK(bulk_afile_open(&f, p, "w") == 0, "open a regular file: %s", strerror(errno));
    CHECK(f.tmp_path && strncmp(f.tmp_path, dir, strlen(dir)) == 0, "temporary in the directory");
    const char *base = f.tmp_path ? strrchr(f.tmp_path, '/') + 1 : "";
    CHECK(strncmp(base, ".reg.txt.bulk-tmp-", 18) == 0, "temporary name %s", base);
    fputs("new", f.fp);
    CHECK(has(p, "old contents\n"), "target unchanged before commit");
    fputs(" contents\n", f.fp);
    CHECK(bulk_afile_commit(&f) == 0, "commit: %s", strerror(errno));
    CHECK(has(p, "new contents\n"), "new bytes after commit");
    stat(p, &after);
    CHECK((after.st_mode & 07777) == 0640, "mode %o kept (got %o)", 0640, after.st_mode & 07777);
    CHECK(after.st_ino != before.st_ino, "replaced by rename (a new inode)");
    char buf[64];
    ssize_t n = old_fd >= 0 ? read(old_fd, buf, sizeof buf) : -1;
    CHECK(n == 13 && memcmp(buf, "old contents\n", 13) == 0, "an open reader saw the old file whole");
    if (old_fd >= 0) close(old_fd);
    CHECK(temps_in(dir) == 0, "no temporary left after commit");
    CHECK(f.fp == NULL && f.path == NULL && f.tmp_path == NULL, "commit released the handle");

    /* abort: the old file stays, no temporary */
    CHECK(bulk_afile_open(&f, p, "wb") == 0, "reopen");
    fputs("partial", f.fp);
    bulk_afile_abort(&f);
    CHECK(has(p, "new contents\n"), "abort keeps the old file");
    CHECK(temps_in(dir) == 0, "abort removes the temporary");
    bulk_afile_abort(&f); /* a second abort does nothing */

    CHECK(bulk_afile_open(&f, p, "r") == -1 && errno == EINVAL, "mode r refused");
    CHECK(bulk_afile_open(&f, "", "w") == -1 && errno == ENOENT, "empty path refused");
}

static void test_new(void)
{
    const mode_t masks[2] = { 022, 077 };
    for (int i = 0; i < 2; i++) {
        const char *p = at("new.txt");
        unlink(p);
        mode_t old = umask(masks[i]);
        int r = bulk_write_file_atomic(p, "fresh\n", 6);
        umask(old);
        CHECK(r == 0, "create a new file: %s", strerror(errno));
        CHECK(has(p, "fresh\n"), "new file's bytes");
        struct stat st;
        CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == (0666 & ~masks[i]),
              "umask %03o: mode %03o, expected %03o", masks[i], st.st_mode & 0777, 0666 & ~masks[i]);
    }
    bulk_afile f;
    const char *q = at("never.txt");
    unlink(q);
    CHECK(bulk_afile_open(&f, q, "w") == 0, "open a new path");
    bulk_afile_abort(&f);
    CHECK(lkind(q) == '-' && temps_in(dir) == 0, "abort of a new path leaves nothing");
    CHECK(bulk_write_file_atomic(at("no-such-dir/x"), "a", 1) == -1 && errno == ENOENT,
          "a missing directory: ENOENT");
}

static void test_links(void)
{
    mkdir(at("sub"), 0777);
    const char *target = at("sub/t.txt"), *link = at("link.txt");
    put(target, "old\n", 0600);
    unlink(link);
    CHECK(symlink("sub/t.txt", link) == 0, "symlink: %s", strerror(errno)); /* relative to the link's directory */
    bulk_afile f;
    CHECK(bulk_afile_open(&f, link, "w") == 0, "open through a link: %s", strerror(errno));
    char sub[PATH_MAX + 8];
    snprintf(sub, sizeof sub, "%s/sub/", dir);
    CHECK(f.tmp_path && strncmp(f.tmp_path, sub, strlen(sub)) == 0, "temporary in the target's directory (%s)",
          f.tmp_path ? f.tmp_path : "none");
    fputs("via link\n", f.fp);
    CHECK(bulk_afile_commit(&f) == 0, "commit through a link: %s", strerror(errno));
    CHECK(lkind(link) == 'l', "the link stays a link");
    CHECK(has(target, "via link\n"), "the target has the bytes");
    struct stat st;
    CHECK(stat(target, &st) == 0 && (st.st_mode & 07777) == 0600, "the target keeps its mode");

    /* a chain: link2 -> link.txt -> sub/t.txt */
    const char *link2 = at("link2");
    unlink(link2);
    CHECK(symlink(link, link2) == 0, "symlink: %s", strerror(errno));
    CHECK(bulk_write_file_atomic(link2, "chain\n", 6) == 0, "write through a chain");
    CHECK(lkind(link2) == 'l' && lkind(link) == 'l' && has(target, "chain\n"), "chain kept, target written");

    /* dangling: creates what it names */
    const char *dtarget = at("sub/dangling-target"), *dlink = at("dangling");
    unlink(dtarget);
    unlink(dlink);
    CHECK(symlink("sub/dangling-target", dlink) == 0, "symlink: %s", strerror(errno));
    CHECK(bulk_write_file_atomic(dlink, "made\n", 5) == 0, "write through a dangling link: %s", strerror(errno));
    CHECK(lkind(dlink) == 'l' && has(dtarget, "made\n"), "dangling link kept, its target created");

    char *res = NULL;
    int replaced = -1;
    CHECK(bulk_out_resolve(link2, &res, &replaced) == 0 && replaced == 1 && res && strcmp(res, target) == 0,
          "bulk_out_resolve follows the chain to %s (got %s)", target, res ? res : "none");
    free(res);

    /* a loop */
    const char *l1 = at("loop1"), *l2 = at("loop2");
    unlink(l1);
    unlink(l2);
    CHECK(symlink("loop2", l1) == 0, "symlink: %s", strerror(errno));
    CHECK(symlink("loop1", l2) == 0, "symlink: %s", strerror(errno));
    CHECK(bulk_write_file_atomic(l1, "x", 1) == -1 && errno == ELOOP, "a link loop: ELOOP");
    CHECK(lkind(l1) == 'l' && lkind(l2) == 'l', "loop links untouched");
    CHECK(temps_in(dir) == 0 && temps_in(at("sub")) == 0, "no temporaries after the link cases");
}

static void test_fifo(void)
{
    const char *fifo = at("fifo"), *got = at("fifo.got"), *lnk = at("fifo.link");
    unlink(fifo);
    unlink(lnk);
    if (mkfifo(fifo, 0600) != 0) {
        CHECK(0, "mkfifo: %s", strerror(errno));
        return;
    }
    CHECK(symlink("fifo", lnk) == 0, "symlink: %s", strerror(errno));
    const char *paths[2] = { fifo, lnk };
    for (int i = 0; i < 2; i++) {
        unlink(got);
        pid_t pid = fork();
        if (pid == 0) { /* the reader: copies the FIFO into got */
            int in = open(fifo, O_RDONLY), out = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            char buf[4096];
            ssize_t n;
            while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
                if (write(out, buf, (size_t)n) != n) _exit(3);
            _exit(in >= 0 && out >= 0 ? 0 : 2);
        }
        int r = bulk_write_file_atomic(paths[i], "through the fifo\n", 17);
        int e = errno;
        int status = -1;
        if (r != 0 || lkind(fifo) != 'p') kill(pid, SIGKILL); /* the reader would wait forever */
        waitpid(pid, &status, 0);
        CHECK(r == 0, "write %s: %s", paths[i], strerror(e));
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "reader of %s", paths[i]);
        CHECK(has(got, "through the fifo\n"), "the reader got the bytes (%s)", paths[i]);
        CHECK(lkind(fifo) == 'p', "the FIFO stays a FIFO (%s)", paths[i]);
    }
    CHECK(lkind(lnk) == 'l', "the link to the FIFO stays a link");
    char *res = NULL;
    int replaced = -1;
    CHECK(bulk_out_resolve(fifo, &res, &replaced) == 0 && replaced == 0 && !res, "resolve: a FIFO is written through");
}

/* /dev/fd/N and a link to /proc/self/fd/N write to descriptor N, at its offset (appending to
 * what was written there, as standard output redirected to a file would). */
static void test_own_fd(void)
{
    int pfd[2];
    if (pipe(pfd) != 0) return;
    fcntl(pfd[0], F_SETFL, O_NONBLOCK); /* a broken writer must not hang the test */
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", pfd[1]);
    CHECK(bulk_write_file_atomic(path, "pipe bytes", 10) == 0, "write %s: %s", path, strerror(errno));
    char buf[32] = { 0 };
    CHECK(read(pfd[0], buf, sizeof buf) == 10 && memcmp(buf, "pipe bytes", 10) == 0, "the pipe got the bytes");
    close(pfd[0]);
    close(pfd[1]);

    const char *f = at("fd.txt"), *lnk = at("self-fd");
    put(f, "", 0644);
    int fd = open(f, O_WRONLY | O_APPEND);
    CHECK(write(fd, "first\n", 6) == 6, "write first");
    char target[64];
    snprintf(target, sizeof target, "/proc/self/fd/%d", fd);
    unlink(lnk);
    CHECK(symlink(target, lnk) == 0, "symlink: %s", strerror(errno));
    CHECK(bulk_write_file_atomic(lnk, "second\n", 7) == 0, "write through a link to %s: %s", target, strerror(errno));
    CHECK(has(f, "first\nsecond\n"), "appended after what the descriptor wrote");
    CHECK(lkind(lnk) == 'l', "the link stays");
    close(fd);
    snprintf(path, sizeof path, "/dev/fd/%d", 200);
    CHECK(bulk_write_file_atomic(path, "x", 1) == -1 && errno == EBADF, "a closed descriptor: EBADF");
}

static void test_dir(void)
{
    const char *d = at("adir");
    mkdir(d, 0777);
    bulk_afile f;
    CHECK(bulk_afile_open(&f, d, "w") == -1 && errno == EISDIR, "a directory: EISDIR");
    char slash[PATH_MAX + 64];
    snprintf(slash, sizeof slash, "%s/", d);
    CHECK(bulk_afile_open(&f, slash, "w") == -1 && errno == EISDIR, "dir/: EISDIR");
    const char *lnk = at("adir.link");
    unlink(lnk);
    CHECK(symlink("adir", lnk) == 0, "symlink: %s", strerror(errno));
    CHECK(bulk_afile_open(&f, lnk, "w") == -1 && errno == EISDIR, "a link to a directory: EISDIR");
    CHECK(lkind(d) == 'd' && lkind(lnk) == 'l' && temps_in(d) == 0 && temps_in(dir) == 0, "directory untouched");
}

/* Writing path (the null device `node`, or a link to it) leaves node a character device. */
static int null_device_ok(const char *path, const char *node)
{
    int ok = bulk_write_file_atomic(path, "nothing\n", 8) == 0;
    CHECK(ok, "write %s: %s", path, strerror(errno));
    CHECK(lkind(node) == 'c', "%s stays a character device", node);
    char *res = NULL;
    int replaced = -1;
    CHECK(bulk_out_resolve(path, &res, &replaced) == 0 && replaced == 0, "resolve %s: written through", path);
    return ok && lkind(node) == 'c';
}

static void test_devices(void)
{
    int root = geteuid() == 0, private_ok = 0;
    const char *node = at("null-node");
    unlink(node);
    if (!root) {
        printf("SKIP: private device node (mknod needs root)\n");
    } else if (mknod(node, S_IFCHR | 0666, makedev(1, 3)) != 0) {
        printf("SKIP: private device node (mknod: %s)\n", strerror(errno));
    } else {
        int fd = open(node, O_WRONLY);
        if (fd < 0) {
            printf("SKIP: private device node (%s: %s; a nodev file system?)\n", node, strerror(errno));
        } else {
            close(fd);
            private_ok = null_device_ok(node, node);
            const char *lnk = at("null-link");
            unlink(lnk);
            CHECK(symlink("null-node", lnk) == 0, "symlink: %s", strerror(errno));
            private_ok &= null_device_ok(lnk, node) && lkind(lnk) == 'l';
            CHECK(lkind(lnk) == 'l', "a link to a device stays a link");
        }
        unlink(node);
    }
    if (root && !private_ok) {
        printf("SKIP: /dev/null and /dev/full (root, and the private node was not written safely)\n");
        return;
    }
    null_device_ok("/dev/null", "/dev/null");
    if (lkind("/dev/full") != 'c') return;
    bulk_afile f;
    CHECK(bulk_afile_open(&f, "/dev/full", "w") == 0, "open /dev/full: %s", strerror(errno));
    if (f.fp) {
        fputs("a little", f.fp); /* buffered: the failure shows at commit */
        CHECK(bulk_afile_commit(&f) == -1 && errno == ENOSPC, "commit to /dev/full: ENOSPC (got %s)", strerror(errno));
    }
    static char big[1 << 17];
    CHECK(bulk_write_file_atomic("/dev/full", big, sizeof big) == -1 && errno == ENOSPC, "a large write to /dev/full: ENOSPC");
    CHECK(bulk_afile_open(&f, "/dev/full", "w") == 0, "reopen /dev/full");
    if (f.fp) bulk_afile_abort(&f); /* nothing written: just closes */
    CHECK(lkind("/dev/full") == 'c', "/dev/full stays a character device");
}

/* Temporaries of dead writers are removed by the first open in their directory; those of live
 * processes, of other hosts and unrelated names stay; an exit() with an output open leaves none. */
static void test_stale(void)
{
    char sd[PATH_MAX + 16];
    snprintf(sd, sizeof sd, "%s/stale", dir);
    mkdir(sd, 0777);
    DIR *dp = opendir(sd); /* empty it: what an earlier run left */
    struct dirent *e;
    while (dp && (e = readdir(dp)))
        if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0))
            unlinkat(dirfd(dp), e->d_name, 0);
    if (dp) closedir(dp);
    char target[PATH_MAX + 32];
    snprintf(target, sizeof target, "%s/out.txt", sd);

    /* a writer that exits with the output open: its atexit handler removes the temporary */
    pid_t pid = fork();
    if (pid == 0) {
        bulk_afile f;
        if (bulk_afile_open(&f, target, "w") != 0) _exit(2);
        fputs("never committed", f.fp);
        exit(4);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 4, "the exiting writer ran");
    CHECK(temps_in(sd) == 0, "exit() removed its temporary (%d left)", temps_in(sd));

    /* a writer killed between open and commit */
    pid = fork();
    if (pid == 0) {
        bulk_afile f;
        if (bulk_afile_open(&f, target, "w") != 0) _exit(2);
        fputs("never committed", f.fp);
        fflush(f.fp);
        raise(SIGKILL);
        _exit(3);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status), "the writer was killed");
    CHECK(temps_in(sd) == 1, "the killed writer left its temporary (%d)", temps_in(sd));

    /* the killed one's name, with a live process id (our parent) and with another host */
    char dead[NAME_MAX + 1] = "", live[PATH_MAX + 300], other[PATH_MAX + 300], odd[PATH_MAX + 300];
    dp = opendir(sd);
    while (dp && (e = readdir(dp)))
        if (strstr(e->d_name, ".bulk-tmp-")) snprintf(dead, sizeof dead, "%s", e->d_name);
    if (dp) closedir(dp);
    unsigned host = 0;
    long dpid = 0;
    char rnd[16] = "";
    const char *tag = strstr(dead, ".bulk-tmp-");
    CHECK(tag && sscanf(tag, ".bulk-tmp-%8x-%ld-%12s", &host, &dpid, rnd) == 3 && dpid == (long)pid,
          "temporary name %s has host, pid %ld, random", dead, (long)pid);
    snprintf(live, sizeof live, "%s/.out.txt.bulk-tmp-%08x-%ld-%s", sd, host, (long)getppid(), rnd);
    snprintf(other, sizeof other, "%s/.out.txt.bulk-tmp-%08x-%ld-%s", sd, host ^ 1u, (long)pid, rnd);
    snprintf(odd, sizeof odd, "%s/.out.txt.bulk-tmp-%08x-%ld-xyz", sd, host, (long)pid);
    put(live, "live", 0600);
    put(other, "other host", 0600);
    put(odd, "not ours", 0600);

    CHECK(bulk_write_file_atomic(target, "done\n", 5) == 0, "write in the directory: %s", strerror(errno));
    char deadp[PATH_MAX + 300];
    snprintf(deadp, sizeof deadp, "%s/%s", sd, dead);
    CHECK(lkind(deadp) == '-', "the dead writer's temporary was removed");
    CHECK(lkind(live) == 'f', "a live process's temporary was kept");
    CHECK(lkind(other) == 'f', "another host's temporary was kept");
    CHECK(lkind(odd) == 'f', "a file that only looks like a temporary was kept");
    CHECK(has(target, "done\n"), "the output itself");
    unlink(live);
    unlink(other);
    unlink(odd);
}

int main(void)
{
    const char *rel = test_scratch_dir("atomic_file");
    if (!realpath(rel, dir)) {
        fprintf(stderr, "no scratch directory %s\n", rel);
        return 2;
    }
    test_regular();
    test_new();
    test_links();
    test_fifo();
    test_own_fd();
    test_dir();
    test_devices();
    test_stale();
    return test_finish();
}
