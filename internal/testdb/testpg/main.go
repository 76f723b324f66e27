// Command testpg runs a command (the test suite) against one throwaway
// PostgreSQL server made for the whole run: it starts the server, migrates
// and seeds a template, runs the command with TEST_DATABASE_URL and
// TEST_DATABASE_TEMPLATE set, then stops the server and exits with the
// command's status. `make test` runs every test binary under it, so the run
// starts one server instead of one per test binary.
//
//	go run ./internal/testdb/testpg -- go test -race -count=1 ./...
//
// With TEST_DATABASE_URL already set it uses that server and only makes
// (and afterwards drops) the template.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/giftwell/giftwell/internal/testdb"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run starts the shared server, runs args and returns the exit status.
func run(args []string) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: testpg -- COMMAND [ARG...]")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	start := time.Now()
	shared, err := testdb.StartShared(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testpg:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "testpg: one PostgreSQL for the run, ready in %s\n", time.Since(start).Round(time.Millisecond))
	defer func() {
		if err := shared.Close(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "testpg: stop:", err)
		}
	}()

	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), shared.Env()...)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testpg:", err)
		return 1
	}
	// Pass interrupts on, and still clean up after the command ends.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	signal.Stop(sigs)
	close(sigs)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	default:
		fmt.Fprintln(os.Stderr, "testpg:", err)
		return 1
	}
}
