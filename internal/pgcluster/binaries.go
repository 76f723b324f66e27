package pgcluster

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Binaries is a directory holding the PostgreSQL server programs initdb,
// pg_ctl and postgres.
type Binaries struct {
	// Dir is the directory the three programs are in.
	Dir string
}

// programs are the server programs a cluster needs.
var programs = []string{"initdb", "pg_ctl", "postgres"}

// ErrNoBinaries is wrapped by FindBinaries when no PostgreSQL server
// programs can be found.
var ErrNoBinaries = errors.New("PostgreSQL server binaries not found")

// FindBinaries looks for initdb, pg_ctl and postgres: first in PATH, then in
// /usr/lib/postgresql/*/bin, newest version first. The error names what is
// missing and how to install it.
func FindBinaries() (Binaries, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		dir := filepath.Dir(resolve(p))
		if hasAll(dir) {
			return Binaries{Dir: dir}, nil
		}
	}
	for _, dir := range debianDirs(debianGlob) {
		if hasAll(dir) {
			return Binaries{Dir: dir}, nil
		}
	}
	return Binaries{}, fmt.Errorf("%w: need %s in PATH or in /usr/lib/postgresql/<version>/bin; "+
		"install them with `apt-get install postgresql` (Debian/Ubuntu) or your system's PostgreSQL server package, "+
		"or set DATABASE_URL to an existing server", ErrNoBinaries, strings.Join(programs, ", "))
}

// Path is the full path of one of the programs.
func (b Binaries) Path(program string) string { return filepath.Join(b.Dir, program) }

// resolve follows symlinks so that a PATH entry like /usr/local/bin/initdb
// leads to the directory that also holds pg_ctl and postgres.
func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func hasAll(dir string) bool {
	for _, p := range programs {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}

// debianGlob is where Debian and Ubuntu install the server programs, one
// directory per major version.
var debianGlob = "/usr/lib/postgresql/*/bin"

// debianDirs lists the directories matching glob, highest major version first.
func debianDirs(glob string) []string {
	dirs, _ := filepath.Glob(glob)
	version := func(d string) float64 {
		v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(d)), 64)
		return v
	}
	sort.SliceStable(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	return dirs
}
