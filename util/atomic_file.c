/* User-named outputs: see atomic_file.h for the contract. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include "atomic_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "splitmix.h"

#define TMP_TAG ".bulk-tmp-"
#define NAME_KEEP 200 /* bytes of the target's name kept in a temporary's name (NAME_MAX 255) */
#define MAX_HOPS 40   /* symbolic links followed before ELOOP, as the kernel does */

/* ---- what is at the path ------------------------------------------------------------------ */

enum kind {
    K_NEW,     /* nothing: a new file, through a temporary */
    K_REGULAR, /* a regular file, replaced through a temporary */
    K_DIRECT,  /* a device, FIFO, socket, or a file of /proc or /sys: opened as it is */
    K_DUP      /* /proc/<our pid>/fd/N (what /dev/stdout, /dev/fd/N lead to): descriptor N */
};

struct target {
    enum kind kind;
    char *path;     /* canonical directory + the final name */
    struct stat st; /* K_REGULAR */
    int fd;         /* K_DUP */
};

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    int sep = a > 0 && dir[a - 1] != '/';
    char *p = malloc(a + (size_t)sep + b + 1);
    if (!p) return NULL;
    memcpy(p, dir, a);
    if (sep) p[a] = '/';
    memcpy(p + a + (size_t)sep, name, b + 1);
    return p;
}

/* The directory part of path (malloc'ed): "." when there is no slash, "/" for "/name". */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Parses decimal digits at *s (advancing it); -1 when there are none or too many. */
static long digits(const char **s)
{
    long v = 0;
    const char *p = *s;
    while (*p >= '0' && *p <= '9' && v < 100000000) v = v * 10 + (*p++ - '0');
    if (p == *s || (*p >= '0' && *p <= '9')) return -1;
    *s = p;
    return v;
}

/* N when path is /proc/<this process>/fd/N or /proc/<this process>/task/<tid>/fd/N, else -1.
 * Such a "file" is an open descriptor of ours, and writing to it means writing to the
 * descriptor: what it names may be a pipe (no path at all) or a file the shell opened for
 * appending. */
static int own_fd(const char *path)
{
    if (strncmp(path, "/proc/", 6) != 0) return -1;
    const char *p = path + 6;
    if (digits(&p) != (long)getpid()) return -1;
    if (strncmp(p, "/task/", 6) == 0) {
        p += 6;
        if (digits(&p) < 0) return -1;
    }
    if (strncmp(p, "/fd/", 4) != 0) return -1;
    p += 4;
    long n = digits(&p);
    return *p == 0 && n >= 0 && n <= INT32_MAX ? (int)n : -1;
}

static int pseudo_fs(const char *path)
{
    return strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/sys/", 5) == 0;
}

static char *read_link(const char *path, size_t size_hint)
{
    for (size_t cap = size_hint + 2 > 64 ? size_hint + 2 : 64; cap <= 65536; cap *= 2) {
        char *buf = malloc(cap);
        if (!buf) return NULL;
        ssize_t n = readlink(path, buf, cap);
        if (n < 0) {
            free(buf);
            return NULL;
        }
        if ((size_t)n < cap) {
            buf[n] = 0;
            return buf;
        }
        free(buf);
    }
    errno = ENAMETOOLONG;
    return NULL;
}

/* Follows `path` to what a write must reach. Each step canonicalises the directory part
 * (realpath), so that /proc and /sys are recognised however they were reached, and reads one
 * symbolic link of the final component. 0, or -1 with errno. */
static int resolve(const char *path, struct target *t)
{
    memset(t, 0, sizeof *t);
    if (!*path) {
        errno = ENOENT;
        return -1;
    }
    char *cur = strdup(path);
    if (!cur) return -1;
    for (int hop = 0;; hop++) {
        if (hop > MAX_HOPS) {
            errno = ELOOP;
            break;
        }
        const char *base = base_of(cur);
        if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
            struct stat st; /* "dir/", ".", "..": a directory, or not a usable name */
            int e = stat(cur, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : ENOTDIR;
            free(cur);
            errno = e;
            return -1;
        }
        char *dir = dir_of(cur);
        char *rdir = dir ? realpath(dir, NULL) : NULL;
        char *canon = rdir ? join(rdir, base) : NULL;
        int e = errno;
        free(dir);
        free(rdir);
        free(cur);
        if (!canon) {
            errno = e;
            return -1;
        }
        cur = canon;
        int fd = own_fd(cur);
        if (fd >= 0) {
            if (fcntl(fd, F_GETFD) == -1) break; /* EBADF: not open */
            t->kind = K_DUP;
            t->fd = fd;
            t->path = cur;
            return 0;
        }
        struct stat st;
        if (pseudo_fs(cur)) { /* no renames there: write what is there, following links */
            if (stat(cur, &st) != 0) break;
            if (S_ISDIR(st.st_mode)) {
                errno = EISDIR;
                break;
            }
            t->kind = K_DIRECT;
            t->path = cur;
            return 0;
        }
        if (lstat(cur, &st) != 0) {
            if (errno != ENOENT) break;
            t->kind = K_NEW;
            t->path = cur;
            return 0;
        }
        if (S_ISLNK(st.st_mode)) {
            char *link = read_link(cur, (size_t)st.st_size);
            if (!link) break;
            char *next = link;
            if (link[0] != '/') {
                char *d = dir_of(cur);
                next = d ? join(d, link) : NULL;
                free(d);
                free(link);
                if (!next) break;
            }
            free(cur);
            cur = next;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            break;
        }
        t->kind = S_ISREG(st.st_mode) ? K_REGULAR : K_DIRECT;
        t->st = st;
        t->path = cur;
        return 0;
    }
    int e = errno;
    free(cur);
    errno = e;
    return -1;
}

int bulk_out_resolve(const char *path, char **target, int *replaced)
{
    struct target t;
    *target = NULL;
    *replaced = 0;
    if (resolve(path, &t) != 0) return -1;
    if (t.kind == K_NEW || t.kind == K_REGULAR) {
        *target = t.path;
        *replaced = 1;
    } else {
        free(t.path);
    }
    return 0;
}

/* ---- temporaries: names, creation, cleanup ------------------------------------------------ */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static uint32_t host_hash; /* FNV-1a of the host name */
static uint64_t name_state;

/* Temporaries this process has open, removed by an atexit handler so that a run that exits
 * early (an error exit between open and commit) leaves none. Only the process that created one
 * removes it: a forked child's exit() does not. */
struct live {
    const char *tmp; /* the bulk_afile's own tmp_path */
    pid_t pid;
    struct live *next;
};
static struct live *live_list;

/* Directories this process has already cleaned of dead writers' temporaries. */
struct cleaned {
    char *dir;
    struct cleaned *next;
};
static struct cleaned *cleaned_list;

static void remove_live(void)
{
    pthread_mutex_lock(&lock);
    for (struct live *l = live_list; l; l = l->next)
        if (l->pid == getpid()) unlink(l->tmp);
    pthread_mutex_unlock(&lock);
}

static void init_once(void)
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
    uint32_t h = 2166136261u;
    for (const char *p = host; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    host_hash = h;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    name_state = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    atexit(remove_live);
}

/* 48 unpredictable bits: the kernel's generator, or (where it cannot answer at once) a
 * clock-seeded sequence; O_EXCL makes either safe, the first makes names unguessable. */
static uint64_t random48(void)
{
    uint64_t r;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) == (ssize_t)sizeof r) return r & 0xffffffffffffull;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    pthread_mutex_lock(&lock);
    name_state ^= (uint64_t)ts.tv_nsec;
    r = bulk_splitmix64(&name_state);
    pthread_mutex_unlock(&lock);
    return r & 0xffffffffffffull;
}

static void track(const char *tmp)
{
    struct live *l = malloc(sizeof *l);
    if (!l) return; /* then only the next run's cleanup removes it */
    l->tmp = tmp;
    l->pid = getpid();
    pthread_mutex_lock(&lock);
    l->next = live_list;
    live_list = l;
    pthread_mutex_unlock(&lock);
}

static void untrack(const char *tmp)
{
    pthread_mutex_lock(&lock);
    for (struct live **pp = &live_list; *pp; pp = &(*pp)->next)
        if ((*pp)->tmp == tmp) {
            struct live *l = *pp;
            *pp = l->next;
            free(l);
            break;
        }
    pthread_mutex_unlock(&lock);
}

/* 1 when name is a temporary of a process of this host that no longer exists. */
static int dead_temp(const char *name)
{
    if (name[0] != '.') return 0;
    const char *tag = NULL;
    for (const char *p = name; (p = strstr(p, TMP_TAG)); p++) tag = p;
    if (!tag) return 0;
    const char *p = tag + strlen(TMP_TAG);
    char *end;
    unsigned long h = strtoul(p, &end, 16);
    if (end != p + 8 || *end != '-' || (uint32_t)h != host_hash) return 0;
    p = end + 1;
    long pid = digits(&p);
    if (pid <= 0 || *p != '-' || strlen(p + 1) != 12 || strspn(p + 1, "0123456789abcdef") != 12) return 0;
    if ((pid_t)pid == getpid()) return 0;
    return kill((pid_t)pid, 0) == -1 && errno == ESRCH;
}

/* Removes dead writers' temporaries from dir, once per process and directory (a checkpoint
 * rewritten every few seconds does not rescan a large directory each time). */
static void clean_dir(const char *dir)
{
    pthread_mutex_lock(&lock);
    for (struct cleaned *c = cleaned_list; c; c = c->next)
        if (strcmp(c->dir, dir) == 0) {
            pthread_mutex_unlock(&lock);
            return;
        }
    struct cleaned *c = malloc(sizeof *c);
    char *copy = strdup(dir);
    if (c && copy) {
        c->dir = copy;
        c->next = cleaned_list;
        cleaned_list = c;
    } else {
        free(c);
        free(copy);
    }
    pthread_mutex_unlock(&lock);
    int saved = errno;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            struct stat st;
            if (dead_temp(e->d_name) && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                S_ISREG(st.st_mode))
                unlinkat(dirfd(d), e->d_name, 0);
        }
        closedir(d);
    }
    errno = saved;
}

/* Creates a new temporary for target (canonical) in its directory; returns the descriptor and
 * sets *tmp (malloc'ed), or -1 with errno. */
static int make_temp(const char *target, mode_t mode, char **tmp)
{
    char *dir = dir_of(target);
    if (!dir) return -1;
    clean_dir(dir);
    char name[NAME_KEEP + 64];
    int fd = -1;
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        snprintf(name, sizeof name, ".%.*s" TMP_TAG "%08x-%ld-%012llx", NAME_KEEP, base_of(target),
                 (unsigned)host_hash, (long)getpid(), (unsigned long long)random48());
        *tmp = join(dir, name);
        if (!*tmp) break;
        fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0) {
            int e = errno;
            free(*tmp);
            *tmp = NULL;
            errno = e;
            if (e != EEXIST) break;
        }
    }
    int e = errno;
    free(dir);
    errno = e;
    return fd;
}

/* ---- the output ------------------------------------------------------------------------- */

/* Opens what t designates; -1 with errno, or -2 when what is there changed since resolve (a
 * regular file appeared where a device was: the caller resolves again). */
static int open_target(const struct target *t, char **tmp)
{
    *tmp = NULL;
    if (t->kind == K_DUP) {
        if (t->fd == 1) fflush(stdout); /* keep the order of what was printed before */
        if (t->fd == 2) fflush(stderr);
        return fcntl(t->fd, F_DUPFD_CLOEXEC, 3);
    }
    if (t->kind == K_DIRECT) {
        int pseudo = pseudo_fs(t->path);
        int fd = open(t->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (pseudo ? 0 : O_NOFOLLOW));
        if (fd < 0) return errno == ELOOP && !pseudo ? -2 : -1;
        struct stat st;
        if (!pseudo && (fstat(fd, &st) != 0 || S_ISREG(st.st_mode))) {
            close(fd);
            return -2;
        }
        return fd;
    }
    if (t->kind == K_NEW) return make_temp(t->path, 0666, tmp); /* 0666 & ~umask, as fopen */
    int fd = make_temp(t->path, 0600, tmp);
    if (fd < 0) return -1;
    if (t->st.st_uid != geteuid() || t->st.st_gid != getegid()) {
        if (fchown(fd, t->st.st_uid, t->st.st_gid) != 0) {
            /* not ours to give away: the new file is the writer's, as a new file would be */
        }
    }
    if (fchmod(fd, t->st.st_mode & 07777) != 0) {
        int e = errno;
        close(fd);
        unlink(*tmp);
        free(*tmp);
        *tmp = NULL;
        errno = e;
        return -1;
    }
    return fd;
}

int bulk_afile_open(bulk_afile *f, const char *path, const char *mode)
{
    memset(f, 0, sizeof *f);
    if (!path || !mode || (strcmp(mode, "w") != 0 && strcmp(mode, "wb") != 0)) {
        errno = EINVAL;
        return -1;
    }
    pthread_once(&once, init_once);
    for (int attempt = 0; attempt < 4; attempt++) {
        struct target t;
        if (resolve(path, &t) != 0) return -1;
        char *tmp;
        int fd = open_target(&t, &tmp);
        if (fd == -2) {
            free(t.path);
            continue;
        }
        FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!fp) {
            int e = errno;
            if (fd >= 0) close(fd);
            if (tmp) unlink(tmp);
            free(tmp);
            free(t.path);
            errno = e;
            return -1;
        }
        if (tmp) track(tmp);
        f->fp = fp;
        f->path = t.path;
        f->tmp_path = tmp;
        return 0;
    }
    errno = EAGAIN; /* what is at the path keeps changing */
    return -1;
}

static void release(bulk_afile *f)
{
    if (f->tmp_path) untrack(f->tmp_path);
    free(f->path);
    free(f->tmp_path);
    f->path = f->tmp_path = NULL;
    f->fp = NULL;
}

/* Makes a rename in the directory of path durable (best effort: not every file system can). */
static void sync_dir(const char *path)
{
    char *dir = dir_of(path);
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        if (fsync(fd) != 0) { /* the rename itself is done; only its durability is unknown */
        }
        close(fd);
    }
    free(dir);
}

int bulk_afile_commit(bulk_afile *f)
{
    if (!f->fp) {
        errno = EBADF;
        return -1;
    }
    int e = 0;
    errno = 0;
    if (fflush(f->fp) != 0) e = errno ? errno : EIO;
    else if (ferror(f->fp)) e = EIO; /* an earlier write failed; its cause is gone */
    int fd = fileno(f->fp);
    struct stat st;
    if (!e && f->tmp_path && fsync(fd) != 0) e = errno;
    if (!e && !f->tmp_path && fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && fsync(fd) != 0) e = errno;
    if (fclose(f->fp) != 0 && !e) e = errno;
    if (f->tmp_path) {
        if (!e && rename(f->tmp_path, f->path) != 0) e = errno;
        if (e) unlink(f->tmp_path);
        else sync_dir(f->path);
    }
    release(f);
    errno = e;
    return e ? -1 : 0;
}

void bulk_afile_abort(bulk_afile *f)
{
    if (!f->fp) return;
    int e = errno;
    fclose(f->fp);
    if (f->tmp_path) unlink(f->tmp_path);
    release(f);
    errno = e;
}

int bulk_write_file_atomic(const char *path, const void *data, size_t len)
{
    bulk_afile f;
    if (bulk_afile_open(&f, path, "wb") != 0) return -1;
    errno = 0;
    if (len && fwrite(data, 1, len, f.fp) != len) {
        int e = errno ? errno : EIO;
        bulk_afile_abort(&f);
        errno = e;
        return -1;
    }
    return bulk_afile_commit(&f);
}
