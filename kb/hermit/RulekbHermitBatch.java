// HermiT's own command line (org.semanticweb.HermiT.cli.CommandLine, the one owlready2
// runs) called once per request in a single JVM, so that many axiom sets are reasoned
// about without a JVM start and a cold JIT each. One request per stdin line: the
// command line's arguments separated by tabs. One answer per request on stdout:
//   RULEKB <status> <byte count>\n<what the command line printed (stdout and stderr)>
// status is OK, or ERROR when it threw (HermiT's "Inconsistent ontology" included:
// the message is in the printed text, as a separate JVM would have printed it).
import java.io.*;
import java.nio.charset.StandardCharsets;

public class RulekbHermitBatch {
  public static void main(String[] argv) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    OutputStream answers = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      PrintStream capture = new PrintStream(printed, true, "UTF-8");
      System.setOut(capture);
      System.setErr(capture);
      String status = "OK";
      try {
        org.semanticweb.HermiT.cli.CommandLine.main(line.split("\t"));
      } catch (Throwable error) {
        status = "ERROR";
        capture.println("Exception in thread \"main\" " + error);
        error.printStackTrace(capture);
      }
      capture.flush();
      byte[] text = printed.toByteArray();
      answers.write(("RULEKB " + status + " " + text.length + "\n").getBytes(StandardCharsets.US_ASCII));
      answers.write(text);
      answers.flush();
    }
  }
}
