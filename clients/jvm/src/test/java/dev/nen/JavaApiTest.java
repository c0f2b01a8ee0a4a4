// The public API from Java: options built with the builder, NenHttpClient.send with a standard
// BodyHandler, the OkHttp interceptor, and NenException's code/status in a catch block.
// Pitfall: needs the real server like IntegrationTest (TestServer skips or fails clearly).
package dev.nen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

class JavaApiTest {
  @Test
  void callableFromJava() throws Exception {
    try (TestServer server = TestServer.Companion.start(java.util.Map.of())) {
      NenOptions options =
          NenOptions.builder().pin(TestServer.Companion.getXWING_PIN()).timeoutMs(10_000).build();
      NenHttpClient client = new NenHttpClient(options);
      HttpRequest req =
          HttpRequest.newBuilder(URI.create(server.getUrl() + "/api/echo"))
              .header("content-type", "text/plain")
              .POST(HttpRequest.BodyPublishers.ofString("from java"))
              .build();
      HttpResponse<String> res = client.send(req, HttpResponse.BodyHandlers.ofString());
      assertEquals(200, res.statusCode());
      assertEquals("from java", res.body());

      OkHttpClient ok =
          new OkHttpClient.Builder().addInterceptor(new NenInterceptor(options)).followRedirects(false).build();
      try (Response r = ok.newCall(new Request.Builder().url(server.getUrl() + "/api/echo?j=1").build()).execute()) {
        assertEquals(200, r.code());
      }

      NenException e =
          assertThrows(
              NenException.class,
              () -> new NenHttpClient(NenOptions.pinned("k9:" + TestServer.Companion.getXWING_PIN().substring(3)))
                  .send(req, HttpResponse.BodyHandlers.ofString()));
      assertEquals("NEN_UNKNOWN_KEY_ID", e.getCode());
      assertEquals(400, e.getStatus());
    }
  }
}
