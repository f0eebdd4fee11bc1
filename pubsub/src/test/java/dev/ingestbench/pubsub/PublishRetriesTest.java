package dev.ingestbench.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.api.core.ApiFuture;
import com.google.api.gax.retrying.RetrySettings;
import com.google.cloud.pubsub.v1.Publisher;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.PublishRequest;
import com.google.pubsub.v1.PublishResponse;
import com.google.pubsub.v1.PublisherGrpc;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.TopicName;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server that is slow but stores every request it gets, as pstest does while a Pull holds its
 * lock: the client's default retries store each event twice, {@link PublishRetries} once.
 */
@Timeout(60)
class PublishRetriesTest {
  /** Longer than the client's default first attempt (5 s). */
  private static final long SERVER_PAUSE_MS = 6_000;

  private final AtomicInteger stored = new AtomicInteger();
  private Server server;

  @BeforeEach
  void startSlowServer() throws Exception {
    server =
        Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
            .addService(
                new PublisherGrpc.PublisherImplBase() {
                  @Override
                  public void publish(
                      PublishRequest request, StreamObserver<PublishResponse> response) {
                    sleep(SERVER_PAUSE_MS);
                    // Stored whether or not the client still waits, as pstest does.
                    PublishResponse.Builder ids = PublishResponse.newBuilder();
                    for (int i = 0; i < request.getMessagesCount(); i++) {
                      ids.addMessageIds(Integer.toString(stored.incrementAndGet()));
                    }
                    response.onNext(ids.build());
                    response.onCompleted();
                  }
                })
            .build()
            .start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void aSlowServerStoresEachEventOnce() throws Exception {
    assertEquals(3, publishThree(PublishRetries.publishOnce()));
  }

  @Test
  void theClientsDefaultRetriesStoreTheSlowRequestAgain() throws Exception {
    // What PublishRetries prevents: the 5 s attempt times out, the request is sent again, both
    // are stored. Keeps this test honest about the server it runs against.
    assertEquals(6, publishThree(null));
  }

  /** Publishes three messages in one request; what the server stored once it is answered. */
  private int publishThree(RetrySettings retries) throws Exception {
    try (PubsubChannels channels =
        PubsubChannels.forEmulatorHost("127.0.0.1:" + server.getPort())) {
      Publisher.Builder builder =
          Publisher.newBuilder(TopicName.of("p", "t"))
              .setChannelProvider(channels.channelProvider())
              .setCredentialsProvider(channels.credentialsProvider());
      if (retries != null) {
        builder.setRetrySettings(retries);
      }
      Publisher publisher = builder.build();
      List<ApiFuture<String>> ids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ids.add(
            publisher.publish(
                PubsubMessage.newBuilder().setData(ByteString.copyFromUtf8("e" + i)).build()));
      }
      publisher.publishAllOutstanding();
      for (ApiFuture<String> id : ids) {
        id.get(40, TimeUnit.SECONDS);
      }
      publisher.shutdown();
      publisher.awaitTermination(10, TimeUnit.SECONDS);
      // An abandoned attempt was sent before its resend, so it is stored by now too.
      return stored.get();
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
