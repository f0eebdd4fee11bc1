// Command pstest-server runs Google's in-memory Pub/Sub fake (pstest) as a
// standalone gRPC server on a loopback port, for ingestbench's local rounds.
//
// It prints one line "listening on HOST:PORT" on stdout once it accepts
// connections, so a launcher can start it on port 0 and learn the real port.
// It exits when stdin closes or on SIGINT/SIGTERM, so a crashed parent never
// leaves an emulator behind.
//
// pstest deletes a message no subscriber has taken 10 minutes after it was
// published, whatever the subscription's retention says: a backlog that drains
// slower than that would lose messages the pipeline never saw. The build
// (PstestPatch) turns that constant into a variable and adds SetRetention, so
// -retention keeps them as long as a run lasts.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"cloud.google.com/go/pubsub/v2/pstest"
)

func main() {
	host := flag.String("host", "127.0.0.1", "loopback address to listen on")
	port := flag.Int("port", 0, "port to listen on; 0 picks a free one")
	watchStdin := flag.Bool("exit-on-stdin-eof", true, "exit when standard input closes (parent died)")
	retention := flag.Duration("retention", 7*24*time.Hour, "how long a message no subscriber has taken is kept (pstest's own: 10m)")
	flag.Parse()
	pstest.SetRetention(*retention)

	srv := pstest.NewServerWithAddress(fmt.Sprintf("%s:%d", *host, *port))
	fmt.Printf("listening on %s\n", srv.Addr)
	os.Stdout.Sync()

	done := make(chan struct{})
	if *watchStdin {
		go func() {
			io.Copy(io.Discard, os.Stdin)
			close(done)
		}()
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case <-sig:
	case <-done:
	}
	if err := srv.Close(); err != nil {
		log.Printf("closing emulator: %v", err)
	}
}
