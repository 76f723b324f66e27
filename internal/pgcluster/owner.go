package pgcluster

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// runAs is the account the server programs run under: nil means the current
// user; when the current user is root it is the postgres user, because
// PostgreSQL refuses to run as root.
type runAs struct {
	uid, gid uint32
	name     string
}

func serverAccount() (*runAs, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL must run as the postgres user, which does not exist: "+
			"install the server with `apt-get install postgresql` (it creates the user) or run as a normal user: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("postgres user has a non-numeric uid or gid (%s:%s)", u.Uid, u.Gid)
	}
	return &runAs{uid: uint32(uid), gid: uint32(gid), name: "postgres"}, nil
}

// sysProcAttr runs a child as the account.
func (a *runAs) sysProcAttr() *syscall.SysProcAttr {
	if a == nil {
		return nil
	}
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: a.uid, Gid: a.gid}}
}

// chown gives path to the account (a no-op for the current user).
func (a *runAs) chown(path string) error {
	if a == nil {
		return nil
	}
	return os.Chown(path, int(a.uid), int(a.gid))
}

// checkReachable fails when the account cannot traverse every parent of dir:
// a server running as postgres cannot open a data directory under /root.
func (a *runAs) checkReachable(dir string) error {
	if a == nil {
		return nil
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // created later, searchable by all (0755)
		}
		if err != nil {
			return err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		mode := fi.Mode().Perm()
		searchable := mode&0o001 != 0 ||
			(ok && st.Uid == a.uid && mode&0o100 != 0) ||
			(ok && st.Gid == a.gid && mode&0o010 != 0)
		if !searchable {
			return fmt.Errorf("PostgreSQL runs as the %s user and cannot reach %s, because %s is not searchable by it: "+
				"run `chmod o+x %s`, or choose a data directory elsewhere (GIFTWELL_DATA_DIR)", a.name, dir, p, p)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// TempDir creates a new directory under os.TempDir() whose name starts with
// pattern (keep it short: the socket may live there), owned by the account
// the server runs as, so that a throwaway cluster's data directory, socket
// and log can all live in it and StopAfterExit can remove it.
func TempDir(pattern string) (string, error) {
	account, err := serverAccount()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	if err := account.chown(dir); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// relocationRoots are where ReachableDataDir puts a cluster the postgres
// user cannot reach where it was asked for, in order of preference.
var relocationRoots = func() []string { return []string{"/var/lib/giftwell", filepath.Join(os.TempDir(), "giftwell-data")} }

// ReachableDataDir returns where the cluster files meant for dataDir can
// live. That is dataDir itself unless the server runs as the postgres user
// (the caller is root) and a parent of dataDir is not searchable by it, as
// in a clone under /root or any 0700 directory: then it is a directory the
// postgres user owns under /var/lib/giftwell (or the system temp directory
// when that cannot be made), named after the project directory and a hash
// of dataDir so that two checkouts never share one, and moved is true. The
// caller keeps everything else (its lock, its first-run file) where it was.
func ReachableDataDir(dataDir string) (dir string, moved bool, err error) {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return "", false, err
	}
	account, err := serverAccount()
	if err != nil || account == nil || account.checkReachable(abs) == nil {
		return abs, false, err
	}
	sum := sha256.Sum256([]byte(abs))
	name := filepath.Base(filepath.Dir(filepath.Dir(abs))) + "-" + hex.EncodeToString(sum[:6])
	var errs []error
	for _, root := range relocationRoots() {
		home := filepath.Join(root, name)
		if err := os.MkdirAll(root, 0o755); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.Mkdir(home, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			errs = append(errs, err)
			continue
		}
		if err := account.chown(home); err != nil {
			errs = append(errs, err)
			continue
		}
		dir = filepath.Join(home, filepath.Base(abs))
		if account.checkReachable(dir) == nil {
			return dir, true, nil
		}
		errs = append(errs, fmt.Errorf("%s is not reachable by the %s user", root, account.name))
	}
	return "", false, fmt.Errorf("PostgreSQL runs as the %s user, which cannot reach %s, and no place it can reach could be made: %w",
		account.name, abs, errors.Join(errs...))
}
