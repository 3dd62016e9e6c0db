import com.clarkparsia.owlapi.explanation.PelletExplanation;
import com.clarkparsia.pellet.owlapiv3.PelletReasonerFactory;
import org.semanticweb.owlapi.apibinding.OWLManager;
import org.semanticweb.owlapi.model.*;
import uk.ac.manchester.cs.owl.owlapi.mansyntaxrenderer.ManchesterOWLSyntaxOWLObjectRendererImpl;
import java.io.File;
import java.nio.file.*;
import java.util.*;
public class RulekbExplain {
  public static void main(String[] args) throws Exception {
    PelletExplanation.setup();
    OWLOntologyManager manager = OWLManager.createOWLOntologyManager();
    OWLOntology ontology = manager.loadOntologyFromOntologyDocument(new File(args[0]));
    OWLDataFactory f = manager.getOWLDataFactory();
    OWLAnnotationProperty id = f.getOWLAnnotationProperty(IRI.create("http://purl.org/dc/terms/identifier"));
    PelletExplanation explain = new PelletExplanation(PelletReasonerFactory.getInstance().createNonBufferingReasoner(ontology));
    ManchesterOWLSyntaxOWLObjectRendererImpl renderer = new ManchesterOWLSyntaxOWLObjectRendererImpl();
    for (String line : Files.readAllLines(Paths.get(args[1]))) {
      String[] w = line.trim().split(" ");
      System.out.println("QUERY " + line.trim());
      try {
        Set<OWLAxiom> axioms;
        if (w[0].equals("inconsistent")) axioms = explain.getInconsistencyExplanation();
        else if (w[0].equals("sub")) axioms = explain.getSubClassExplanation(c(f, w[1]), c(f, w[2]));
        else if (w[0].equals("disjoint")) axioms = explain.getUnsatisfiableExplanation(f.getOWLObjectIntersectionOf(c(f, w[1]), c(f, w[2])));
        else if (w[0].equals("unsat")) axioms = explain.getUnsatisfiableExplanation(c(f, w[1]));
        else axioms = Collections.emptySet();
        if (axioms != null) for (OWLAxiom axiom : axioms) {
          String name = "-";
          for (OWLAxiom original : ontology.getAxiomsIgnoreAnnotations(axiom))
            for (OWLAnnotation a : original.getAnnotations(id))
              if (a.getValue() instanceof OWLLiteral) name = ((OWLLiteral) a.getValue()).getLiteral();
          System.out.println("AXIOM " + name + " " + renderer.render(axiom).replaceAll("\\s+", " "));
        }
      } catch (Exception e) {
        System.out.println("ERROR " + e.toString().replace('\n', ' '));
      }
      System.out.println("END");
    }
  }
  static OWLClass c(OWLDataFactory f, String iri) { return f.getOWLClass(IRI.create(iri)); }
}
