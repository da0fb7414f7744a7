package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.aws.ec2.MimeArchive.Part;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading the MIME user data people write, and writing ours as Karpenter does. */
class MimeArchiveTest {
    @Test
    void writesKarpentersLayoutWithTheDelimiterOwningTheLineEndBeforeIt() {
        String doc = new MimeArchive(List.of(new Part(MimeArchive.SHELL, "#!/bin/bash\necho hi\n"),
                new Part(MimeArchive.NODE_CONFIG, "kind: NodeConfig"))).serialize();

        assertThat(doc).isEqualTo("""
                MIME-Version: 1.0
                Content-Type: multipart/mixed; boundary="//"

                --//
                Content-Type: text/x-shellscript; charset="us-ascii"

                #!/bin/bash
                echo hi

                --//
                Content-Type: application/node.eks.aws

                kind: NodeConfig
                --//--
                """);
    }

    @Test
    void everyPartReadsBackExactlyIncludingItsTrailingNewline() {
        List<Part> parts = List.of(new Part(MimeArchive.SHELL, "#!/bin/bash\necho hi\n"),
                new Part(MimeArchive.NODE_CONFIG, "kind: NodeConfig"), new Part("text/plain", "\n\ntwo blank lines\n\n"));

        assertThat(MimeArchive.parse(new MimeArchive(parts).serialize()).parts()).isEqualTo(parts);
    }

    @Test
    void crlfLineEndsAndAFoldedContentTypeWithTheBoundaryOnTheNextLineAreRead() {
        String doc = "mime-version: 1.0\r\nContent-Type: multipart/mixed;\r\n\tboundary=\"==Part_0 1==\"\r\n\r\n"
                + "This is a preamble.\r\n--==Part_0 1==\r\nContent-Type: text/x-shellscript;\r\n charset=\"us-ascii\"\r\n"
                + "Content-Disposition: attachment; filename=\"a.sh\"\r\n\r\n#!/bin/bash\r\necho hi\r\n"
                + "--==Part_0 1==--\r\nepilogue\r\n";

        assertThat(MimeArchive.looksLikeMime(doc)).isTrue();
        assertThat(MimeArchive.parse(doc).parts()).singleElement().satisfies(p -> {
            assertThat(p.contentType()).startsWith("text/x-shellscript;").endsWith("charset=\"us-ascii\"");
            assertThat(p.content()).isEqualTo("#!/bin/bash\necho hi");
        });
    }

    @Test
    void base64AndQuotedPrintablePartsAreDecodedToTheTextNodeadmAndCloudInitRead() {
        String script = Base64.getMimeEncoder().encodeToString("#!/bin/bash\necho 'héllo'\n".getBytes(StandardCharsets.UTF_8));
        String doc = """
                Content-Type: multipart/mixed; boundary=XYZ
                MIME-Version: 1.0

                --XYZ
                Content-Type: text/x-shellscript
                Content-Transfer-Encoding: base64

                %s
                --XYZ
                Content-Type: application/node.eks.aws
                Content-Transfer-Encoding: Quoted-Printable

                kind: NodeConfig=0Aspec: {cluster: {name: a-very-long-cluster-name-that-the-sen=
                der-wrapped}}
                --XYZ--
                """.formatted(script);

        List<Part> parts = MimeArchive.parse(doc).parts();

        assertThat(parts).extracting(Part::content).containsExactly("#!/bin/bash\necho 'héllo'\n",
                "kind: NodeConfig\nspec: {cluster: {name: a-very-long-cluster-name-that-the-sender-wrapped}}");
        assertThat(parts).extracting(Part::transferEncoding).containsOnlyNulls();
        assertThat(new MimeArchive(parts).serialize()).doesNotContain("Content-Transfer-Encoding");
    }

    @Test
    void aPartThatIsNotTextKeepsItsBytesAsBase64() {
        byte[] gzip = {0x1f, (byte) 0x8b, 0x08, 0x00, (byte) 0xff, (byte) 0xfe, 0x00, 0x01};
        String doc = "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: application/x-gzip\n"
                + "Content-Transfer-Encoding: base64\n\n" + Base64.getEncoder().encodeToString(gzip) + "\n--b--\n";

        Part part = MimeArchive.parse(doc).parts().getFirst();
        String written = new MimeArchive(List.of(part)).serialize();

        assertThat(part.transferEncoding()).isEqualTo("base64");
        assertThat(Base64.getMimeDecoder().decode(part.content())).isEqualTo(gzip);
        assertThat(written).contains("Content-Type: application/x-gzip\nContent-Transfer-Encoding: base64\n\n");
        assertThat(MimeArchive.parse(written).parts()).containsExactly(part);
    }

    @Test
    void aNestedMultipartStaysOnePartWithItsOwnBoundary() {
        String doc = """
                MIME-Version: 1.0
                Content-Type: multipart/mixed; boundary="outer"

                --outer
                Content-Type: multipart/alternative; boundary="inner"

                --inner
                Content-Type: text/cloud-config

                runcmd: [echo hi]
                --inner--

                --outer
                Content-Type: text/x-shellscript

                echo after
                --outer--
                """;

        List<Part> parts = MimeArchive.parse(doc).parts();

        assertThat(parts).extracting(Part::contentType)
                .containsExactly("multipart/alternative; boundary=\"inner\"", "text/x-shellscript");
        assertThat(parts.getFirst().content()).isEqualTo("--inner\nContent-Type: text/cloud-config\n\nruncmd: [echo hi]\n--inner--\n");
        assertThat(MimeArchive.parse(new MimeArchive(parts).serialize()).parts()).isEqualTo(parts);
    }

    @Test
    void aPartWithoutContentTypeIsPlainText() {
        assertThat(MimeArchive.parse("Content-Type: multipart/mixed; boundary=b\n\n--b\n\nhello\n--b--\n").parts())
                .containsExactly(new Part("text/plain", "hello"));
    }

    @Test
    void mimeThatIsNotMultipartIsRejected() {
        assertThatThrownBy(() -> MimeArchive.parse("MIME-Version: 1.0\nContent-Type: text/x-shellscript\n\necho hi\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("userData is MIME but not multipart with a boundary");
        assertThatThrownBy(() -> MimeArchive.parse("Content-Type: multipart/mixed\n\n--x\n\necho hi\n--x--\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("userData is MIME but not multipart with a boundary");
    }

    @Test
    void aShellScriptIsNotMistakenForMime() {
        assertThat(MimeArchive.looksLikeMime("#!/bin/bash\necho Content-Type: x\n")).isFalse();
        assertThat(MimeArchive.looksLikeMime("\nCONTENT-TYPE: multipart/mixed; boundary=b\n")).isTrue();
    }
}
