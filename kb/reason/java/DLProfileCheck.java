import org.semanticweb.owlapi.apibinding.OWLManager;
import org.semanticweb.owlapi.model.*;
import org.semanticweb.owlapi.profiles.*;
import java.io.File;
public class DLProfileCheck {
  public static void main(String[] args) throws Exception {
    OWLOntologyManager manager = OWLManager.createOWLOntologyManager();
    OWLOntology ontology = manager.loadOntologyFromOntologyDocument(new File(args[0]));
    for (OWLProfileViolation v : new OWL2DLProfile().checkOntology(ontology).getViolations())
      System.out.println("VIOLATION " + v.toString().replace('\n', ' '));
    System.out.println("DONE");
  }
}
