import { useEffect, useMemo, useRef, type RefObject } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import {
  BufferGeometry,
  DoubleSide,
  Float32BufferAttribute,
  Line,
  LineBasicMaterial,
  Raycaster,
  TOUCH,
  Vector2,
  Vector3,
  type Mesh,
  type PerspectiveCamera,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { type PinCamera } from '@dentflow/domain';
import { isTap } from './gestures';
import {
  faceNormalToModel,
  modelToWorld,
  roundMm,
  worldToModel,
  type Vec3Tuple,
} from './pin-geometry';
import { frameBox, unionBox } from './stl-scene';
import { afterNextPaint, applyFraming } from './frame-camera';

const IDENTITY_ELEMENTS = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
/** How long the camera takes to fly to a pin. */
const FLIGHT_MS = 450;

export interface SceneModel {
  id: number;
  geometry: BufferGeometry;
  color: string;
  opacity: number;
  visible: boolean;
}

export type ViewerTool = 'orbit' | 'pin' | 'measure';

/** A point picked on a model: where (scene and model coordinates), its face, and the camera. */
export interface Pick {
  layerId: number;
  world: Vec3Tuple;
  point: Vec3Tuple;
  normal: Vec3Tuple;
  camera: PinCamera;
}

/** A marker to draw: a pin (model coordinates of its layer) or a measuring point (scene). */
export interface Marker {
  key: string;
  /** Model coordinates of `layerId`'s model, or scene coordinates when null. */
  at: Vec3Tuple;
  layerId: number | null;
  color: string;
  opacity: number;
  scale: number;
}

const tuple = (vector: { x: number; y: number; z: number }): Vec3Tuple => [
  vector.x,
  vector.y,
  vector.z,
];

/**
 * The models, lights and orbit controls; frames the visible models on load and on reset. With
 * a picking tool a tap (never a drag or two fingers: those orbit and zoom) picks the point of
 * the model under it; markers, the measuring line and camera flights are drawn here too.
 */
export function Scene(props: {
  models: SceneModel[];
  frameKey: string;
  onDrawn: () => void;
  tool: ViewerTool;
  /** The layers a tap may pick (pin: the pinned planning file; measure: every visible one). */
  pickable: readonly number[];
  onPick: (pick: Pick) => void;
  markers: readonly Marker[];
  /** The measuring line's ends (scene coordinates) and the label kept over its middle. */
  line: readonly [Vec3Tuple, Vec3Tuple] | null;
  lineLabel: RefObject<HTMLDivElement | null>;
  /** A camera to fly to (model coordinates of `flight.layerId`), new on each request. */
  flight: { camera: PinCamera; layerId: number; key: string } | null;
  onFlown: (key: string) => void;
}) {
  const camera = useThree((state) => state.camera) as PerspectiveCamera;
  const gl = useThree((state) => state.gl);
  const invalidate = useThree((state) => state.invalidate);
  const size = useThree((state) => state.size);
  const controls = useMemo(() => {
    const created = new OrbitControls(camera, gl.domElement);
    created.enablePan = true;
    created.screenSpacePanning = true;
    return created;
  }, [camera, gl]);
  useEffect(() => {
    const render = () => invalidate();
    controls.addEventListener('change', render);
    return () => {
      controls.removeEventListener('change', render);
      controls.dispose();
    };
  }, [controls, invalidate]);

  const { models, frameKey, onDrawn } = props;
  const meshes = useRef(new Map<number, Mesh>());
  const matrixOf = (layerId: number) =>
    meshes.current.get(layerId)?.matrixWorld.elements ?? IDENTITY_ELEMENTS;

  // On a picking tool one finger no longer orbits (a tap picks); two fingers orbit and zoom.
  useEffect(() => {
    const picking = props.tool !== 'orbit';
    controls.touches = {
      ONE: picking ? (null as unknown as TOUCH) : TOUCH.ROTATE,
      TWO: picking ? TOUCH.DOLLY_ROTATE : TOUCH.DOLLY_PAN,
    };
  }, [controls, props.tool]);

  // Taps: pointer down and up on the canvas, with the most pointers held in between.
  const pickRef = useRef({ tool: props.tool, pickable: props.pickable, onPick: props.onPick });
  pickRef.current = { tool: props.tool, pickable: props.pickable, onPick: props.onPick };
  useEffect(() => {
    const element = gl.domElement;
    const held = new Set<number>();
    let press: { downAt: number; x: number; y: number; pointers: number } | null = null;
    const down = (event: PointerEvent) => {
      held.add(event.pointerId);
      if (held.size === 1) {
        press = { downAt: event.timeStamp, x: event.clientX, y: event.clientY, pointers: 1 };
      } else if (press) press.pointers = Math.max(press.pointers, held.size);
    };
    const up = (event: PointerEvent) => {
      held.delete(event.pointerId);
      if (!press || held.size > 0) return;
      const trace = {
        downAt: press.downAt,
        upAt: event.timeStamp,
        down: { x: press.x, y: press.y },
        up: { x: event.clientX, y: event.clientY },
        pointers: press.pointers,
      };
      press = null;
      const { tool, pickable, onPick } = pickRef.current;
      if (tool === 'orbit' || !isTap(trace)) return;
      const rect = element.getBoundingClientRect();
      const ndc = new Vector2(
        ((event.clientX - rect.left) / rect.width) * 2 - 1,
        -((event.clientY - rect.top) / rect.height) * 2 + 1,
      );
      const raycaster = new Raycaster();
      raycaster.setFromCamera(ndc, camera);
      const targets = pickable.flatMap((id) => {
        const mesh = meshes.current.get(id);
        return mesh && mesh.visible ? [mesh] : [];
      });
      const [hit] = raycaster.intersectObjects(targets, false);
      if (!hit?.face) return;
      const layerId = [...meshes.current].find(([, mesh]) => mesh === hit.object)?.[0];
      if (layerId === undefined) return;
      const matrix = hit.object.matrixWorld.elements;
      onPick({
        layerId,
        world: tuple(hit.point),
        point: roundMm(worldToModel(matrix, tuple(hit.point))),
        normal: roundMm(faceNormalToModel(tuple(hit.face.normal))),
        camera: {
          position: roundMm(worldToModel(matrix, tuple(camera.position))),
          target: roundMm(worldToModel(matrix, tuple(controls.target))),
        },
      });
    };
    const cancel = (event: PointerEvent) => {
      held.delete(event.pointerId);
      if (held.size === 0) press = null;
    };
    element.addEventListener('pointerdown', down);
    element.addEventListener('pointerup', up);
    element.addEventListener('pointercancel', cancel);
    return () => {
      element.removeEventListener('pointerdown', down);
      element.removeEventListener('pointerup', up);
      element.removeEventListener('pointercancel', cancel);
    };
  }, [gl, camera, controls]);
  useEffect(() => {
    const shown = models.filter((model) => model.visible);
    const box = unionBox(
      (shown.length ? shown : models).map((model) => model.geometry.boundingBox),
    );
    if (!box) return;
    const framing = frameBox(box, camera.fov, size.width / Math.max(size.height, 1));
    applyFraming(camera, controls, framing);
    invalidate();
    return afterNextPaint(onDrawn);
    // Framing follows the loaded set and the reset button, not every toggle.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [frameKey]);

  // A flight to a pin's camera: a short ease from where the camera is.
  const { flight, onFlown } = props;
  useEffect(() => {
    if (!flight) return;
    const matrix = matrixOf(flight.layerId);
    const toPosition = new Vector3(...modelToWorld(matrix, flight.camera.position as Vec3Tuple));
    const toTarget = new Vector3(...modelToWorld(matrix, flight.camera.target as Vec3Tuple));
    const fromPosition = camera.position.clone();
    const fromTarget = controls.target.clone();
    const started = performance.now();
    let frame = 0;
    const step = () => {
      const k = Math.min((performance.now() - started) / FLIGHT_MS, 1);
      const eased = 1 - (1 - k) ** 3;
      camera.position.lerpVectors(fromPosition, toPosition, eased);
      controls.target.lerpVectors(fromTarget, toTarget, eased);
      controls.update();
      invalidate();
      if (k < 1) frame = requestAnimationFrame(step);
      else onFlown(flight.key);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
    // A flight starts on its own request only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flight?.key]);

  // The measuring line, and its label kept over the line's middle on every drawn frame.
  const line = useMemo(() => {
    if (!props.line) return null;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new Float32BufferAttribute(props.line.flat(), 3));
    return new Line(geometry, new LineBasicMaterial({ color: '#d9480f', depthTest: false }));
  }, [props.line]);
  useEffect(() => () => line?.geometry.dispose(), [line]);
  useEffect(() => invalidate(), [props.markers, line, invalidate]);
  const { lineLabel } = props;
  useFrame(() => {
    const label = lineLabel.current;
    if (!label || !props.line) return;
    const [a, b] = props.line;
    const middle = new Vector3((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
    middle.project(camera);
    label.style.left = `${((middle.x + 1) / 2) * size.width}px`;
    label.style.top = `${((1 - middle.y) / 2) * size.height}px`;
  });
  const radius = useMemo(() => {
    const box = unionBox(models.map((model) => model.geometry.boundingBox));
    return box
      ? Math.hypot(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z) / 2
      : 10;
  }, [models]);

  return (
    <>
      {props.markers.map((marker) => (
        <mesh
          key={marker.key}
          position={
            marker.layerId === null ? marker.at : modelToWorld(matrixOf(marker.layerId), marker.at)
          }
          scale={(radius / 70) * marker.scale}
          renderOrder={3}
        >
          <sphereGeometry args={[1, 16, 12]} />
          <meshBasicMaterial
            color={marker.color}
            transparent={marker.opacity < 1}
            opacity={marker.opacity}
            depthTest={false}
          />
        </mesh>
      ))}
      {line && <primitive object={line} renderOrder={2} />}
      <ambientLight intensity={0.45} />
      <hemisphereLight args={['#ffffff', '#667788', 0.7]} />
      <directionalLight position={[1, 1.5, 2]} intensity={1.1} />
      <directionalLight position={[-1.5, -1, -2]} intensity={0.5} />
      {models.map((model) => (
        <mesh
          key={model.id}
          ref={(mesh: Mesh | null) => {
            if (mesh) meshes.current.set(model.id, mesh);
            else meshes.current.delete(model.id);
          }}
          geometry={model.geometry}
          visible={model.visible}
          renderOrder={model.opacity < 1 ? 1 : 0}
        >
          <meshStandardMaterial
            color={model.color}
            roughness={0.55}
            metalness={0.05}
            side={DoubleSide}
            transparent={model.opacity < 1}
            opacity={model.opacity}
            depthWrite={model.opacity >= 1}
          />
        </mesh>
      ))}
    </>
  );
}
